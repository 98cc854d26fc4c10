import { type CallbackHandler, isThenable, onAbort, runInAsyncContext } from "../../shared/index.js";
import { NodeTimeoutError, type TimeoutPolicy } from "../core/index.js";
import type { AttemptClock, LangGraphRunnableConfig, RunningTask } from "./types.js";

export { coerceTimeoutPolicy } from "../core/index.js";

class Clock implements AttemptClock {
  active = true;
  last = Date.now();
  private readonly auto: boolean;
  constructor(auto: boolean) {
    this.auto = auto;
  }
  progress(): void {
    if (this.auto) this.last = Date.now();
  }
  touch(): void {
    this.last = Date.now();
  }
}

/** A callback handler that counts every event of the node's model and tool calls as progress. */
function progressHandler(clock: Clock): CallbackHandler {
  const progress = () => clock.progress();
  return {
    name: "IdleProgressCallbackHandler",
    handleChatModelStart: progress,
    handleLLMNewToken: progress,
    handleLLMEnd: progress,
    handleLLMError: progress,
    handleToolStart: progress,
    handleToolEnd: progress,
    handleToolError: progress,
    handleToolEvent: progress,
  };
}

/** The node's config for one timed attempt: its own signal, writer, heartbeat and callbacks. */
function attemptConfig(
  base: LangGraphRunnableConfig<unknown>,
  signal: AbortSignal,
  clock: Clock,
  policy: TimeoutPolicy,
): LangGraphRunnableConfig<unknown> {
  // own properties (symbol keys included) copied onto an object of the same class, so the
  // lazily made `interrupt` still works and spreads of this config keep everything
  const config = Object.assign(
    Object.create(Object.getPrototypeOf(base) as object) as LangGraphRunnableConfig<unknown>,
    base,
  );
  config.signal = signal;
  const writer = base.writer;
  if (writer !== undefined) {
    config.writer = (chunk) => {
      if (!clock.active) return;
      clock.progress();
      writer(chunk);
    };
  }
  const idle = policy.idleTimeout !== undefined;
  config.heartbeat = () => {
    if (idle) clock.touch();
  };
  if (idle && policy.refreshOn !== "heartbeat") {
    config.callbacks = [...(base.callbacks ?? []), progressHandler(clock)];
  }
  return config;
}

/** Runs the node and its writers with the attempt's config; drops what comes after a timeout. */
function runBody(
  task: RunningTask,
  config: LangGraphRunnableConfig<unknown>,
  clock: Clock,
): void | Promise<void> {
  const node = task.node;
  const output = node.bound(task.input, config);
  if (isThenable(output)) {
    return Promise.resolve(output).then((resolved) => {
      if (!clock.active) return undefined;
      task.output = resolved;
      return node.writers?.(resolved, task);
    });
  }
  task.output = output;
  return node.writers?.(output, task);
}

/**
 * One attempt of a node with a timeout: the node runs against run/idle watchdogs (timers made
 * for this attempt only). When one fires first — or the node returns after its time was up
 * (a synchronous node that blocked) — the attempt's writes are dropped, its signal aborts and a
 * {@link NodeTimeoutError} is thrown. Otherwise it settles as the node did.
 */
export function timedAttempt(task: RunningTask, policy: TimeoutPolicy): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const { runTimeout, idleTimeout } = policy;
    const clock = new Clock(policy.refreshOn !== "heartbeat");
    const controller = new AbortController();
    const parent = task.config.signal;
    let unlink: (() => void) | undefined;
    if (parent !== undefined) {
      if (parent.aborted) controller.abort(parent.reason);
      else unlink = onAbort(parent, () => controller.abort(parent.reason));
    }
    const config = attemptConfig(task.config, controller.signal, clock, policy);
    const start = Date.now();
    let settled = false;
    let runTimer: ReturnType<typeof setTimeout> | undefined;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const close = () => {
      settled = true;
      if (runTimer !== undefined) clearTimeout(runTimer);
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      if (task.clock === clock) task.clock = undefined;
      unlink?.();
    };
    const timeOut = (kind: "run" | "idle") => {
      if (settled) return;
      close();
      clock.active = false;
      task.writes.length = 0;
      controller.abort();
      reject(
        new NodeTimeoutError({ node: task.name, elapsed: Date.now() - start, kind, runTimeout, idleTimeout }),
      );
    };
    const done = (failed: boolean, error?: unknown) => {
      if (settled) return;
      const now = Date.now();
      if (runTimeout !== undefined && now - start >= runTimeout) return timeOut("run");
      if (idleTimeout !== undefined && now - clock.last >= idleTimeout) return timeOut("idle");
      close();
      if (failed) reject(error);
      else resolve();
    };
    if (runTimeout !== undefined) runTimer = setTimeout(() => timeOut("run"), runTimeout);
    if (idleTimeout !== undefined) {
      const checkIdle = () => {
        const remaining = clock.last + idleTimeout - Date.now();
        if (remaining <= 0) timeOut("idle");
        else idleTimer = setTimeout(checkIdle, remaining);
      };
      idleTimer = setTimeout(checkIdle, idleTimeout);
    }
    task.clock = clock;
    let pending: void | Promise<void>;
    try {
      pending = runInAsyncContext(config, () => runBody(task, config, clock));
    } catch (error) {
      done(true, error);
      return;
    }
    if (pending === undefined) done(false);
    else
      pending.then(
        () => done(false),
        (error: unknown) => done(true, error),
      );
  });
}
