import { getAsyncContext } from "../../shared/index.js";
import { GraphValueError } from "../core/index.js";
import {
  type CachePolicy,
  type CallOptions,
  CURRENT_TASK,
  coerceTimeoutPolicy,
  type LangGraphRunnableConfig,
  type RetryPolicy,
  type RunningTask,
  type TimeoutPolicy,
} from "../loop/index.js";

/** Options of {@link task}. */
export interface TaskOptions {
  name: string;
  /** How the task retries on failure. */
  retry?: RetryPolicy;
  /**
   * Caches the task's result by its arguments, in the entrypoint's (or graph's) `cache`; `true`
   * is the default policy (JSON of the arguments as the key, no expiry).
   */
  cachePolicy?: CachePolicy | boolean;
  /** LangGraph.js's other name for {@link TaskOptions.cachePolicy} (read when that one is absent). */
  cache?: CachePolicy | boolean;
  /** How long one attempt may take: milliseconds (a `runTimeout`) or a {@link TimeoutPolicy}. */
  timeout?: number | TimeoutPolicy;
}

/**
 * Declares a unit of work of the functional API. Calling the returned function inside an
 * `entrypoint` (or a graph node) runs it as a task of the current step, concurrently with other
 * calls, streams its result (`updates`: `{ [name]: result }`), and — with a checkpointer —
 * saves the result so that a re-run of the entrypoint (after an interrupt) reuses it instead of
 * doing the work again.
 *
 * @example
 * ```ts
 * const fetchUser = task("fetchUser", async (id: string) => db.users.get(id));
 * const workflow = entrypoint("workflow", async (id: string) => (await fetchUser(id)).name);
 * ```
 */
export function task<Args extends unknown[], Output>(
  nameOrOptions: string | TaskOptions,
  fn: (...args: Args) => Output | Promise<Output>,
): (...args: Args) => Promise<Output> {
  const options: TaskOptions = typeof nameOrOptions === "string" ? { name: nameOrOptions } : nameOrOptions;
  if (typeof fn !== "function") {
    throw new GraphValueError(`task("${options.name}", fn) needs a function.`);
  }
  if (isGeneratorFunction(fn)) {
    throw new GraphValueError(
      `Generators are disallowed as tasks. For streaming responses, use config.write. (Task "${options.name}": return a value, and stream chunks with config.writer(chunk) or getWriter().)`,
    );
  }
  const name = options.name;
  const chosenCache = options.cachePolicy ?? options.cache;
  const callOptions: CallOptions = {
    retryPolicy: options.retry,
    cachePolicy: typeof chosenCache === "boolean" ? (chosenCache ? {} : undefined) : chosenCache,
    timeout: coerceTimeoutPolicy(options.timeout),
  };
  // an anonymous function (its `name` is empty), as LangGraph.js's task() returns
  return (...args: Args): Promise<Output> => {
    const config = getAsyncContext<LangGraphRunnableConfig<unknown>>();
    const parent = (config as Record<symbol, unknown> | undefined)?.[CURRENT_TASK] as RunningTask | undefined;
    if (parent === undefined) {
      // thrown, not returned as a rejection, as LangGraph.js fails such a call
      throw new GraphValueError(
        `Task "${name}" was called outside of an entrypoint or graph node. Call it from inside entrypoint(...) (or a node of a graph).`,
      );
    }
    return parent.call(name, fn as (...a: unknown[]) => unknown, args, callOptions) as Promise<Output>;
  };
}

/** True for `function*` and `async function*`. */
export function isGeneratorFunction(fn: unknown): boolean {
  if (typeof fn !== "function") return false;
  const tag = (fn as { constructor?: { name?: string } }).constructor?.name;
  return tag === "GeneratorFunction" || tag === "AsyncGeneratorFunction";
}
