import {
  AbortError,
  abortReasonMessage,
  type CallbackHandler,
  getAmbientConfig,
  hasHandlers,
  type RunnableConfig,
  raceSignal,
  randomId,
  resolveConfig,
} from "../../shared/index.js";

/** The RunnableConfig keys, which are not passed to a model as call options. */
const CONFIG_KEYS = new Set([
  "tags",
  "metadata",
  "callbacks",
  "runName",
  "runId",
  "configurable",
  "recursionLimit",
  "maxConcurrency",
  "timeout",
  "signal",
]);

/** What a graph task's config carries for the calls made in it (some as lazy getters). */
const TASK_RUNTIME_KEYS = ["writer", "interrupt", "control", "executionInfo"] as const;

/**
 * Splits the options of a model call into the runnable config (resolved over the ambient
 * config of the graph task the call runs in) and the call options the model sees. The
 * call's `timeout` and the config's `signal` merge into one `signal`.
 *
 * @example
 * ```ts
 * const { config, callOptions, signal } = splitCallOptions({ tags: ["x"], stop: ["\n"], timeout: 5000 });
 * callOptions; // { stop: ["\n"], signal } (`signal: undefined` without a timeout or signal)
 * ```
 */
export function splitCallOptions(options: Record<string, unknown> | undefined): {
  config: RunnableConfig;
  callOptions: Record<string, unknown>;
  signal: AbortSignal | undefined;
} {
  const configPart: Record<string, unknown> = {};
  const callOptions: Record<string, unknown> = {};
  let configKeys = 0;
  // own keys by `for…in`, not `Object.entries` (an array of pairs, destructured, per model call)
  if (options !== undefined) {
    for (const key in options) {
      if (!Object.hasOwn(options, key)) continue;
      const value = options[key];
      if (value === undefined) continue;
      if (CONFIG_KEYS.has(key)) {
        configPart[key] = value;
        configKeys += 1;
      } else callOptions[key] = value;
    }
  }
  // no config of its own (an agent's model call): the ambient one, copied without merging
  const config = resolveConfig(configKeys === 0 ? undefined : (configPart as RunnableConfig));
  const timeout = typeof configPart.timeout === "number" ? configPart.timeout : undefined;
  const signals = [config.signal, timeout === undefined ? undefined : AbortSignal.timeout(timeout)].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  // a key even when there is no signal, as in LangChain.js (callbacks' `extraParams.options` show it)
  callOptions.signal = signal;
  // inside a graph task, the task's runtime (writer, interrupt, control, executionInfo) comes
  // along as call options, from the config given or the ambient one, as LangChain.js's
  // ensureConfig hands the task's config over (an agent's model call sees them too)
  const ambient = getAmbientConfig() as Record<string, unknown> | undefined;
  if (ambient !== undefined || options !== undefined) {
    // indexed: this runs on every model call, mostly before the engine optimizes it, where each
    // `for…of` step allocates
    for (let i = 0; i < TASK_RUNTIME_KEYS.length; i++) {
      const key = TASK_RUNTIME_KEYS[i] as (typeof TASK_RUNTIME_KEYS)[number];
      if (callOptions[key] !== undefined) continue;
      const value = (options !== undefined && key in options ? options[key] : undefined) ?? ambient?.[key];
      if (value !== undefined) callOptions[key] = value;
    }
  }
  return { config, callOptions, signal };
}

/** The handlers of a call: the config's, then the model's own. */
export function collectHandlers(
  config: RunnableConfig,
  own: readonly CallbackHandler[] | undefined,
): CallbackHandler[] | undefined {
  const handlers = [...(config.callbacks ?? []), ...(own ?? [])];
  return hasHandlers(handlers) ? handlers : undefined;
}

/** A fresh run id unless the config names one. */
export function runIdOf(config: RunnableConfig): string {
  return config.runId ?? randomId();
}

/**
 * The error to throw when `signal` aborted: ours, with the message of the error LangChain.js's
 * provider models fail with then (see {@link abortReasonMessage}), the signal's reason as its cause.
 */
export function abortErrorFor(signal: AbortSignal): AbortError {
  return new AbortError(abortReasonMessage(signal.reason), { cause: signal.reason });
}

/**
 * Settles with `promise`, or rejects with an {@link AbortError} as soon as `signal` aborts
 * (so a model that ignores its signal still stops the caller waiting).
 *
 * @example
 * ```ts
 * const result = await raceWithSignal(this._generate(messages, options), options.signal);
 * ```
 */
export function raceWithSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return raceSignal(promise, signal, () => abortErrorFor(signal as AbortSignal));
}
