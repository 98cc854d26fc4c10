import {
  AbortError,
  abortableSleep,
  INVOKE_THEN,
  type InvokesThen,
  isThenable,
  promiseTry,
  runInAsyncContext,
  thenOrElse,
} from "../../shared/index.js";
import {
  CHECKPOINT_NAMESPACE_END,
  CHECKPOINT_NAMESPACE_SEPARATOR,
  Command,
  isGraphBubbleUp,
  isParentCommand,
  type ParentCommand,
} from "../core/index.js";
import { takeNodeStartGate, taskAttemptHooks } from "./graph-callbacks.js";
import { defaultRetryOn, retryDelay } from "./retry.js";
import { timedAttempt } from "./timeout.js";
import type { RetryPolicy, RunningTask } from "./types.js";

/**
 * Runs the node and its writers; synchronous when both are. The first attempt of a task hands
 * its failures to `recover` itself (`fallbackPolicy` given), so that an asynchronous node costs
 * one promise here rather than one for its writers and another for its error handling.
 */
function attempt(
  task: RunningTask,
  fallbackPolicy?: RetryPolicy | null,
  settle?: TaskSettle<unknown>,
): Promise<unknown> | undefined {
  const node = task.node;
  // a Send's own timeout goes ahead of the node's
  const timeout = task.timeout ?? node.timeout;
  if (timeout !== undefined) {
    const timed = timedAttempt(task, timeout);
    if (fallbackPolicy === undefined) return timed;
    return timed.then(undefined, (error: unknown) => recover(task, error, fallbackPolicy ?? undefined, 0));
  }
  const fused = (node.bound as Partial<InvokesThen<unknown, unknown, unknown>>)[INVOKE_THEN];
  if (fused !== undefined && settle !== undefined) return fusedSettling(task, fused, fallbackPolicy, settle);
  const output = node.bound(task.input, task.config);
  if (isThenable(output)) return finishAsync(task, output, fallbackPolicy, settle);
  task.output = output;
  if (node.writers === undefined) return undefined;
  const done = node.writers(output, task);
  return done === undefined ? undefined : done;
}

/**
 * Finishes a task whose node returned a promise, with one continuation (not an `async`
 * function: under Node's `AsyncLocalStorage` every promise and every resumption runs hooks).
 */
function finishAsync(
  task: RunningTask,
  pending: PromiseLike<unknown>,
  fallbackPolicy: RetryPolicy | null | undefined,
  settle?: TaskSettle<unknown>,
): Promise<unknown> {
  const fail = failureHandler(task, fallbackPolicy);
  if (settle !== undefined) {
    // the task's settlement (its commit, or the handling of its failure) runs in the continuation
    // that finishes the task
    const { finished, recovering } = settlementOf(task, fail, settle);
    const settled = Promise.resolve(pending).then(finished, recovering);
    settledPromise = settled;
    return settled;
  }
  return thenOrElse(
    pending,
    (output) => {
      task.output = output;
      const writers = task.node.writers;
      if (writers === undefined) return undefined;
      // writers are synchronous unless a write needs awaiting: no extra turn when they are
      const done = writers(output, task);
      return done === undefined ? undefined : Promise.resolve(done).then(undefined, fail);
    },
    fail,
  );
}

/**
 * What a failed first attempt goes through: with `fallbackPolicy` given (`null`: none), retries
 * and parent commands ({@link recover}); without, it is rethrown.
 */
function failureHandler(
  task: RunningTask,
  fallbackPolicy: RetryPolicy | null | undefined,
): (error: unknown) => Promise<void> {
  return (error) => {
    if (fallbackPolicy === undefined) throw error;
    rethrowUnlessRecoverable(task, error, fallbackPolicy ?? undefined);
    return recover(task, error, fallbackPolicy ?? undefined, 0);
  };
}

/**
 * The two ends of a task for {@link executeTask}: `finished` runs the writers on the node's
 * output and then the settlement; `recovering` sends a failure to `fail` (retries, parent
 * commands) and then to the settlement.
 */
function settlementOf(
  task: RunningTask,
  fail: (error: unknown) => Promise<void>,
  settle: TaskSettle<unknown>,
): { finished: (output: unknown) => unknown; recovering: (error: unknown) => unknown } {
  const done = (): unknown => settle.done(task);
  const failed = (error: unknown): unknown => settle.failed(task, error);
  const recovering = (error: unknown): unknown => {
    let recovered: Promise<void>;
    try {
      recovered = fail(error);
    } catch (final) {
      return failed(final);
    }
    return recovered.then(done, failed);
  };
  const finished = (output: unknown): unknown => {
    let written: unknown;
    try {
      task.output = output;
      const writers = task.node.writers;
      written = writers === undefined ? undefined : writers(output, task);
    } catch (error) {
      return recovering(error);
    }
    if (written !== undefined) return Promise.resolve(written).then(done, recovering);
    // the commit's own errors are the step's, not the node's: they reject, unhandled here
    return done();
  };
  return { finished, recovering };
}

/**
 * A node that takes the engine's continuation ({@link INVOKE_THEN}: the agent's model node,
 * ToolNode): it hands its output to the writers and the settlement in its own last continuation,
 * and its failures to the same handling as a rejected promise's.
 */
function fusedSettling(
  task: RunningTask,
  fused: InvokesThen<unknown, unknown, unknown>[typeof INVOKE_THEN],
  fallbackPolicy: RetryPolicy | null | undefined,
  settle: TaskSettle<unknown>,
): Promise<unknown> {
  const { finished, recovering } = settlementOf(task, failureHandler(task, fallbackPolicy), settle);
  let settled: Promise<unknown>;
  try {
    settled = fused.call(task.node.bound, task.input, task.config, finished, recovering);
  } catch (error) {
    settled = promiseTry(() => recovering(error));
  }
  settledPromise = settled;
  return settled;
}

/** The promise the last {@link finishAsync} given a settlement returned (see executeTask). */
let settledPromise: Promise<unknown> | undefined;

/** `ns` with the task id of each segment removed (`a:1|b:2` → `a|b`). */
function withoutTaskIds(ns: string): string {
  return ns
    .split(CHECKPOINT_NAMESPACE_SEPARATOR)
    .map((part) => part.split(CHECKPOINT_NAMESPACE_END)[0])
    .join(CHECKPOINT_NAMESPACE_SEPARATOR);
}

/** The namespace of the graph that runs the task at `ns` (the task's own segment removed). */
function parentNamespace(ns: string): string {
  const cut = ns.lastIndexOf(CHECKPOINT_NAMESPACE_SEPARATOR);
  return cut === -1 ? "" : ns.slice(0, cut);
}

/**
 * A `Command({ graph: Command.PARENT })` raised by a nested graph's node is re-addressed, level by
 * level, until it reaches the task that runs that nested graph: there it is applied as if this
 * task had returned it.
 */
async function handleParentCommand(task: RunningTask, error: ParentCommand): Promise<boolean> {
  const command = error.command as Command;
  const ns = task.checkpointNs;
  // a `checkpointer: true` subgraph runs under its namespace without task ids, so the command it
  // addresses to its parent names this task's namespace without them
  if (command.graph === ns || (command.graph !== Command.PARENT && command.graph === withoutTaskIds(ns))) {
    task.resetAttempt();
    if (task.node.writers !== undefined) await task.node.writers(command, task);
    return true;
  }
  if (command.graph === Command.PARENT) {
    const retargeted = Object.assign(
      Object.create(Object.getPrototypeOf(command) as object) as Command,
      command,
      {
        graph: parentNamespace(ns),
      },
    );
    (error as { command: unknown }).command = retargeted;
  }
  return false;
}

/**
 * An interrupt or parent command leaving a task names it as its `pregelTaskId` (the task it
 * leaves last, as LangGraph.js sets it on every error a task throws), with no other change.
 */
function markTask<E>(error: E, task: RunningTask): E {
  try {
    (error as { pregelTaskId?: string }).pregelTaskId = task.id;
  } catch {
    // frozen errors keep their shape
  }
  return error;
}

function annotate(error: unknown, task: RunningTask): void {
  if (typeof error !== "object" || error === null) return;
  const e = error as { pregelTaskId?: string; stack?: string; langgraphNode?: string };
  if (e.pregelTaskId !== undefined) return;
  try {
    Object.defineProperty(e, "pregelTaskId", {
      value: task.id,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    Object.defineProperty(e, "langgraphNode", { value: task.name, configurable: true, writable: true });
    if (typeof e.stack === "string") {
      e.stack += `\n    in graph node "${task.name}" (step ${task.step}, task ${task.id})`;
    }
  } catch {
    // frozen errors keep their shape
  }
}

/** What follows a task that ran: its commit (and result), or the handling of its failure. */
export interface TaskSettle<R = void> {
  done(task: RunningTask): R | Promise<R>;
  failed(task: RunningTask, error: unknown): R | Promise<R>;
}

/**
 * Runs one task to completion: the node's code, then its writers, inside the task's async
 * context (so `getConfig()` & co. work), retrying per the retry policy; then `settle.done(task)`,
 * or `settle.failed(task, error)` with the node's error (annotated with the node name and task id)
 * once it gives up. Returns what the settlement returns: synchronously when everything ran
 * synchronously (a step of synchronous nodes allocates no promise). A node that answers with a
 * promise costs one continuation for its writers and its settlement together (under Node's
 * `AsyncLocalStorage` each promise runs hooks).
 */
export function executeTask<R>(
  task: RunningTask,
  fallbackPolicy: RetryPolicy | undefined,
  settle: TaskSettle<R>,
): R | Promise<R> {
  // a chain callback handler with `raiseError` and `awaitHandlers` heard the node start: the node
  // runs once it is done, and fails with its error if it fails (as in LangChain.js)
  const gate = takeNodeStartGate(task);
  if (gate !== undefined) {
    return gate.then(
      () => executeTask(task, fallbackPolicy, settle),
      (error: unknown) => {
        annotate(error, task);
        return settle.failed(task, error);
      },
    );
  }
  task.resetAttempt();
  const any = settle as TaskSettle<unknown>;
  let pending: Promise<unknown> | undefined;
  try {
    // asynchronous failures go to recover from inside (see attempt)
    pending = runInAsyncContext(task.config, () => attempt(task, fallbackPolicy ?? null, any));
  } catch (error) {
    try {
      rethrowUnlessRecoverable(task, error, fallbackPolicy);
    } catch (final) {
      return settle.failed(task, final);
    }
    pending = recover(task, error, fallbackPolicy, 0);
  }
  if (pending === undefined) return settle.done(task);
  if (pending === settledPromise) {
    settledPromise = undefined;
    return pending as Promise<R>;
  }
  // a timeout, a retry or asynchronous writers of a synchronous node: settled here
  return pending.then(
    () => settle.done(task),
    (error: unknown) => settle.failed(task, error),
  );
}

/**
 * Rethrows at once a failure that {@link recover} would only rethrow (an interrupt, or an error
 * with no retry policy), so that the task settles in the order it failed, as LangGraph.js
 * commits it (an interrupt is streamed before the updates of siblings that finished later).
 */
function rethrowUnlessRecoverable(
  task: RunningTask,
  error: unknown,
  fallbackPolicy: RetryPolicy | undefined,
): void {
  if (isParentCommand(error)) return;
  if (isGraphBubbleUp(error)) throw markTask(error, task);
  if ((task.node.retryPolicy ?? fallbackPolicy) !== undefined) return;
  annotate(error, task);
  throw error;
}

/** Handles a failed attempt: applies a parent command, retries, or rethrows. */
async function recover(
  task: RunningTask,
  error: unknown,
  fallbackPolicy: RetryPolicy | undefined,
  attemptsSoFar: number,
): Promise<void> {
  const policy = task.node.retryPolicy ?? fallbackPolicy;
  const signal = task.config.signal;
  let attempts = attemptsSoFar;
  let failure = error;
  for (;;) {
    if (
      isParentCommand(failure) &&
      (await runInAsyncContext(task.config, () => handleParentCommand(task, failure as ParentCommand)))
    ) {
      return;
    }
    if (isGraphBubbleUp(failure) || policy === undefined) {
      if (isGraphBubbleUp(failure)) markTask(failure, task);
      else annotate(failure, task);
      throw failure;
    }
    attempts += 1;
    // a call another call's failure aborted while it ran: its attempt counts as aborted, as in
    // LangGraph.js (where the attempt is raced with the step's signal)
    if (task.abortedBySibling && !(failure instanceof AbortError)) {
      failure = new AbortError("This operation was aborted");
    }
    if (
      attempts >= (policy.maxAttempts ?? 3) ||
      !(policy.retryOn ?? defaultRetryOn)(failure) ||
      signal?.aborted
    ) {
      annotate(failure, task);
      throw failure;
    }
    const delay = retryDelay(policy, attempts);
    if (policy.logWarning ?? true) {
      const name = (failure as { name?: string } | null)?.name ?? "Error";
      console.log(
        `Retrying task "${task.name}" after ${delay.toFixed(2)}ms (attempt ${attempts}) after ${name}: ${String(failure)}`,
      );
    }
    // a sibling's failure may abort the step meanwhile: the task then reports this failure
    annotate(failure, task);
    // chain callbacks hear the failed attempt end, and the next one start as a new run
    const hooks = taskAttemptHooks(task);
    hooks?.failed(failure);
    task.pendingRetry = failure;
    try {
      await abortableSleep(delay, signal);
    } finally {
      task.pendingRetry = undefined;
    }
    const info = task.config.executionInfo;
    if (info !== undefined) info.nodeAttempt = attempts + 1;
    task.resetAttempt();
    if (task.abortedBySibling) {
      // as in LangGraph.js, a call aborted by another call's failure while it waited goes on: its
      // function runs again (its outcome is not waited for) and the attempt fails with an
      // `AbortError`, which the default `retryOn` does not retry
      promiseTry(() => runInAsyncContext(task.config, () => attempt(task))).catch(() => undefined);
      failure = new AbortError("This operation was aborted");
      continue;
    }
    hooks?.restarted();
    try {
      await runInAsyncContext(task.config, () => attempt(task));
      return;
    } catch (next) {
      failure = next;
    }
  }
}
