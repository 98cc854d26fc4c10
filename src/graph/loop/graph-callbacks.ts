import type { CallbackHandler } from "../../shared/index.js";
import type { Interrupt } from "../core/index.js";

/** The mark of a {@link GraphCallbackHandler} (a registered symbol: it holds across copies of the library). */
const GRAPH_CALLBACK_HANDLER: unique symbol = Symbol.for("agentgraph.graphCallbackHandler") as never;

/** Where a graph's run stands when it pauses or resumes (LangGraph.js's loop statuses). */
export type GraphLifecycleStatus =
  | "pending"
  | "done"
  | "interrupt_before"
  | "interrupt_after"
  | "out_of_steps"
  | "draining";

/** A graph's run resumed from a checkpoint (the root graph's, or a nested graph's). */
export interface GraphResumeEvent {
  /** The graph run's id (its `runId` when the caller gave one). */
  readonly runId: string | undefined;
  readonly status: GraphLifecycleStatus;
  /** The checkpoint the run resumes from. */
  readonly checkpointId: string;
  /** The graph's checkpoint namespace, one segment per nesting level (`[]` for the root graph). */
  readonly checkpointNs: readonly string[];
}

/** The root graph paused: its interrupts (none for a static breakpoint) and the checkpoint it paused at. */
export interface GraphInterruptEvent extends GraphResumeEvent {
  readonly interrupts: readonly Interrupt[];
}

export type GraphLifecycleEvent = GraphInterruptEvent | GraphResumeEvent;

/**
 * A callback handler that hears a graph's pauses and resumes (LangGraph.js 1.7's
 * `GraphCallbackHandler`). Extend it and pass an instance in `callbacks`: `handleInterrupt`
 * hears the root graph pause (an `interrupt()`, or a breakpoint, with `interrupts: []`), and
 * `handleResume` hears every graph that resumes from a checkpoint, nested graphs included. Both
 * are awaited before the run goes on (or returns). An error they throw is logged, or fails the
 * run when `raiseError` is true.
 *
 * @example
 * ```ts
 * class Observer extends GraphCallbackHandler {
 *   handleInterrupt(event: GraphInterruptEvent) {
 *     console.log(event.checkpointId, event.interrupts);
 *   }
 * }
 * await graph.invoke(input, { configurable: { thread_id: "t" }, callbacks: [new Observer()] });
 * ```
 */
export class GraphCallbackHandler implements CallbackHandler {
  name = "GraphCallbackHandler";
  /** Whether an error thrown by a lifecycle method fails the run (it is logged otherwise). */
  raiseError = false;
  readonly [GRAPH_CALLBACK_HANDLER] = true;

  /** Whether `value` is a graph callback handler (from any copy of the library). */
  static isInstance(value: unknown): value is GraphCallbackHandler {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [GRAPH_CALLBACK_HANDLER]?: unknown })[GRAPH_CALLBACK_HANDLER] === true
    );
  }

  /** The root graph paused (called before the run returns or its stream ends). */
  handleInterrupt?(event: GraphInterruptEvent): void | Promise<void>;

  /** A graph resumed from a checkpoint (called before it runs its first step). */
  handleResume?(event: GraphResumeEvent): void | Promise<void>;
}

/** The graph callback handlers among a run's callbacks, or `undefined` when there is none. */
export function graphHandlersOf(
  callbacks: readonly CallbackHandler[] | undefined,
): GraphCallbackHandler[] | undefined {
  if (callbacks === undefined) return undefined;
  let found: GraphCallbackHandler[] | undefined;
  for (let i = 0; i < callbacks.length; i++) {
    const handler = callbacks[i];
    if (!GraphCallbackHandler.isInstance(handler)) continue;
    if (found === undefined) found = [handler];
    else found.push(handler);
  }
  return found;
}

/** Tells `handlers` of `event`, one after the other, each awaited (see {@link GraphCallbackHandler}). */
export async function dispatchGraphEvent(
  handlers: readonly GraphCallbackHandler[],
  event: GraphLifecycleEvent,
): Promise<void> {
  const interrupted = "interrupts" in event;
  const method = interrupted ? "handleInterrupt" : "handleResume";
  for (const handler of handlers) {
    try {
      if (interrupted) await handler.handleInterrupt?.(event);
      else await handler.handleResume?.(event);
    } catch (error) {
      const text = `Error in handler ${handler.constructor.name}, ${method}: ${String(error)}`;
      if (handler.raiseError) {
        console.error(text);
        throw error;
      }
      console.warn(text);
    }
  }
}

/** What a node's retried attempts tell the run that reports the node to chain callbacks. */
export interface TaskAttemptHooks {
  /** An attempt failed and the task will be retried (after its backoff). */
  failed(error: unknown): void;
  /** The next attempt starts. */
  restarted(): void;
  /**
   * A functional-API call finished (`error` undefined) or failed, before its result is committed
   * (and streamed) with its step: chain callbacks hear it end as it returns.
   */
  settled(error: unknown, output: unknown): void;
  /**
   * A runnable inside the node's run starts with `input`, which chain callbacks hear as a run of
   * its own, the node's child, as in LangChain.js: a conditional edge's routing function
   * (`RunnableLambda`, reading the state as the node left it), or an entrypoint's hidden
   * `pluckReturnValue` / `pluckSaveValue` (reading what it returned).
   */
  innerRunStarted(name: InnerRunName, input: unknown): InnerRun;
}

/** The runnables inside a node that chain callbacks hear (see {@link TaskAttemptHooks.innerRunStarted}). */
export type InnerRunName = "RunnableLambda" | "pluckReturnValue" | "pluckSaveValue";

/** What a run inside a node tells chain callbacks as it ends. */
export interface InnerRun {
  end(output: unknown): void;
  error(error: unknown): void;
}

/**
 * The hooks of the tasks whose runs chain callbacks hear, by the task's `executionInfo` object
 * (one per task of a run, so runs sharing task ids keep theirs apart; registered by the graph
 * run that reports them, only when chain callbacks listen; a retry looks its task up here).
 */
export const TASK_ATTEMPT_HOOKS = new WeakMap<object, TaskAttemptHooks>();

/** The hooks registered for `task`'s run, if chain callbacks hear it. */
export function taskAttemptHooks(task: {
  config: { executionInfo?: object | undefined };
}): TaskAttemptHooks | undefined {
  const info = task.config.executionInfo;
  return info === undefined ? undefined : TASK_ATTEMPT_HOOKS.get(info);
}

/**
 * What a task waits for before its node runs: the chain callback handlers with `raiseError` and
 * `awaitHandlers` that heard the node start, by the task's `executionInfo` (registered by the
 * graph run that reports it; a failure fails the node with the handler's error, as in
 * LangChain.js). `pendingNodeStarts` counts them, so that tasks look nothing up when there is none.
 */
const NODE_START_GATES = new WeakMap<object, Promise<void>>();
let pendingNodeStarts = 0;

/** Has `info`'s task wait for `gate` before its node runs (see {@link takeNodeStartGate}). */
export function gateNodeStart(info: object, gate: Promise<void>): void {
  NODE_START_GATES.set(info, gate);
  pendingNodeStarts++;
  // a task that never waits for it (its run stopped first) leaves no unhandled rejection
  gate.catch(() => {});
}

/** What `task` waits for before its node runs, if anything (taken: the task waits once). */
export function takeNodeStartGate(task: {
  config: { executionInfo?: object | undefined };
}): Promise<void> | undefined {
  if (pendingNodeStarts === 0) return undefined;
  const info = task.config.executionInfo;
  const gate = info === undefined ? undefined : NODE_START_GATES.get(info);
  if (gate === undefined || info === undefined) return undefined;
  NODE_START_GATES.delete(info);
  pendingNodeStarts--;
  return gate;
}
