import {
  AgentGraphError,
  type AgentGraphErrorOptions,
  hasErrorBrand,
  leaveErrorNameInherited,
} from "../../shared/index.js";
import type { Interrupt } from "./interrupt.js";

/**
 * A run took more supersteps than `recursionLimit` allows (default 25).
 *
 * @example
 * ```ts
 * await graph.invoke(input, { recursionLimit: 100 }); // raise the limit for long loops
 * ```
 */
export class GraphRecursionError extends AgentGraphError {
  static override readonly brandName: string = "GraphRecursionError";
  static override readonly lcErrorCodeAsGiven: boolean = true;
  constructor(message = "", options: AgentGraphErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? options.lc_error_code ?? "GRAPH_RECURSION_LIMIT" });
  }
}

/**
 * A write could not be applied: several values for a single-value channel in one step,
 * a node returned something that is not a state update, a `Send` to an unknown node…
 * The message names the key and the fix.
 */
export class InvalidUpdateError extends AgentGraphError {
  static override readonly brandName: string = "InvalidUpdateError";
  static override readonly lcErrorCodeAsGiven: boolean = true;
  constructor(message = "", options: AgentGraphErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? options.lc_error_code ?? "INVALID_UPDATE" });
  }
}

/** A graph was invoked without input and there is no saved state to resume from. */
export class EmptyInputError extends AgentGraphError {
  static override readonly brandName: string = "EmptyInputError";
  static override readonly lcErrorCodeAsGiven: boolean = true;
}

/**
 * Thrown by a channel's `get()` when it holds no value. The engine uses it as a signal
 * (an empty channel is skipped when state is read), so it carries no stack trace.
 */
export class EmptyChannelError extends AgentGraphError {
  static override readonly brandName: string = "EmptyChannelError";
  static override readonly lcErrorCodeAsGiven: boolean = true;
  constructor(message = "") {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/** A graph-level misconfiguration found while running (e.g. a missing checkpointer). */
export class GraphValueError extends AgentGraphError {
  static override readonly brandName: string = "GraphValueError";
  static override readonly lcErrorCodeAsGiven: boolean = true;
}

/**
 * A graph definition is invalid. Raised by the builder and by `compile()`, never during a
 * run: unknown nodes in edges, reserved names, duplicates, missing entry point…
 */
export class InvalidGraphError extends GraphValueError {
  static override readonly brandName: string = "InvalidGraphError";
  constructor(message = "", options: AgentGraphErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? options.lc_error_code ?? "INVALID_GRAPH" });
  }
}

/**
 * `new StateGraph(...)` was given something that is not a state schema. The message starts
 * with LangGraph.js's text and says what was received.
 */
export class StateGraphInputError extends InvalidGraphError {
  static override readonly brandName: string = "StateGraphInputError";
  constructor(
    message = "Invalid StateGraph input. Make sure to pass a valid StateDefinition, Annotation.Root, or Zod schema.",
    options: AgentGraphErrorOptions = {},
  ) {
    super(message, { ...options, code: options.code ?? options.lc_error_code ?? "INVALID_GRAPH" });
  }
}

/** A node can never run because no edge leads to it. */
export class UnreachableNodeError extends InvalidGraphError {
  static override readonly brandName: string = "UnreachableNodeError";
  constructor(message = "", options: AgentGraphErrorOptions = {}) {
    super(message, { ...options, code: options.code ?? options.lc_error_code ?? "UNREACHABLE_NODE" });
  }
}

/** The graph's `contextSchema` rejected the `context` passed to a run. */
export class InvalidContextError extends AgentGraphError {
  static override readonly brandName: string = "InvalidContextError";
}

/**
 * Base of the control-flow signals that travel up through nodes (interrupts, commands
 * for a parent graph). They are not failures: the engine catches them.
 */
export class GraphBubbleUp extends AgentGraphError {
  static override readonly brandName: string = "GraphBubbleUp";
  static override readonly lcErrorCodeAsGiven: boolean = true;
  get is_bubble_up(): true {
    return true;
  }
}
// as LangGraph.js's: its own errors are plain "Error"s by name, its subclasses' are named
leaveErrorNameInherited(GraphBubbleUp);

/** Raised by `interrupt()` to pause a run; `invoke` turns it into `__interrupt__` output. */
export class GraphInterrupt extends GraphBubbleUp {
  static override readonly brandName: string = "GraphInterrupt";
  readonly interrupts: Interrupt[];
  constructor(interrupts?: Interrupt[], options: AgentGraphErrorOptions = {}) {
    // as LangGraph.js: no interrupts given, no message
    super(interrupts === undefined ? "" : JSON.stringify(interrupts, null, 2), {
      ...options,
      code: options.code ?? options.lc_error_code ?? "GRAPH_INTERRUPT",
    });
    // LangGraph.js's keys: lc_error_code, interrupts, name
    const { name } = this;
    delete (this as { name?: string }).name;
    this.interrupts = interrupts ?? [];
    this.name = name;
  }
}

/**
 * Raised from inside a node to pause the run with a value, without resume support
 * (prefer `interrupt()`).
 */
export class NodeInterrupt extends GraphInterrupt {
  static override readonly brandName: string = "NodeInterrupt";
  constructor(value: unknown, options: AgentGraphErrorOptions = {}) {
    // LangGraph.js gives a NodeInterrupt's interrupt no id (it cannot be resumed by id).
    super([{ value } as Interrupt], options);
  }
}

/** Carries a `Command({ graph: Command.PARENT })` from a subgraph node to its parent graph. */
export class ParentCommand extends GraphBubbleUp {
  static override readonly brandName: string = "ParentCommand";
  readonly command: unknown;
  constructor(command: unknown) {
    // no message, as LangGraph.js (a `tasks`/`debug` result of the node shows `message: ""`)
    super("", { code: "PARENT_COMMAND" });
    // LangGraph.js's keys: lc_error_code, command, name
    const { name } = this;
    delete (this as { name?: string }).name;
    this.command = command;
    this.name = name;
  }
}

/** True for interrupts and parent commands (any {@link GraphBubbleUp}), from any package copy. */
export function isGraphBubbleUp(error: unknown): error is GraphBubbleUp {
  return hasErrorBrand(error, "GraphBubbleUp");
}

/** True for {@link GraphInterrupt} and {@link NodeInterrupt}, from any package copy. */
export function isGraphInterrupt(error: unknown): error is GraphInterrupt {
  return hasErrorBrand(error, "GraphInterrupt");
}

/** True for {@link ParentCommand}, from any package copy. */
export function isParentCommand(error: unknown): error is ParentCommand {
  return hasErrorBrand(error, "ParentCommand");
}

/**
 * A node attempt ran longer than its `timeout` allows (`addNode(name, fn, { timeout })`): the
 * hard `runTimeout` cap, or `idleTimeout` without progress. Not a {@link GraphBubbleUp}: it is
 * a node failure, retried by the node's `retryPolicy` (the default `retryOn` retries it) and
 * routed to its `errorHandler` once retries are exhausted. The attempt's writes are dropped
 * and its `config.signal` is aborted.
 *
 * @example
 * ```ts
 * try {
 *   await graph.invoke(input);
 * } catch (e) {
 *   if (isNodeTimeoutError(e)) console.log(e.node, e.kind, e.timeout, e.elapsed);
 * }
 * ```
 */
export class NodeTimeoutError extends AgentGraphError {
  static override readonly brandName: string = "NodeTimeoutError";
  static override readonly lcErrorCodeAsGiven: boolean = true;
  /** Name of the node (or task) that timed out. */
  readonly node: string;
  /** Which timeout fired: the hard `"run"` cap or the progress-reset `"idle"` one. */
  readonly kind: "run" | "idle";
  /** The value (ms) of the timeout that fired. */
  readonly timeout: number;
  /** Milliseconds since the attempt started, when the timeout fired. */
  readonly elapsed: number;
  /** The configured run timeout (ms), if any. */
  readonly runTimeout: number | undefined;
  /** The configured idle timeout (ms), if any. */
  readonly idleTimeout: number | undefined;
  constructor(
    fields: {
      node: string;
      elapsed: number;
      kind: "run" | "idle";
      runTimeout?: number | undefined;
      idleTimeout?: number | undefined;
    },
    options: AgentGraphErrorOptions = {},
  ) {
    const { node, elapsed, kind, runTimeout, idleTimeout } = fields;
    let timeout: number;
    let message: string;
    if (kind === "idle") {
      if (idleTimeout === undefined) throw new Error("idleTimeout is required when kind='idle'");
      timeout = idleTimeout;
      message = `Node "${node}" exceeded its idle timeout of ${idleTimeout}ms without making progress (elapsed: ${elapsed}ms).`;
    } else {
      if (runTimeout === undefined) throw new Error("runTimeout is required when kind='run'");
      timeout = runTimeout;
      message = `Node "${node}" exceeded its run timeout of ${runTimeout}ms (elapsed: ${elapsed}ms).`;
    }
    super(message, { ...options, code: options.code ?? options.lc_error_code ?? "NODE_TIMEOUT" });
    this.node = node;
    this.kind = kind;
    this.timeout = timeout;
    this.elapsed = elapsed;
    this.runTimeout = runTimeout;
    this.idleTimeout = idleTimeout;
  }
}

/** True for a {@link NodeTimeoutError}, from any package copy. */
export function isNodeTimeoutError(error: unknown): error is NodeTimeoutError {
  return hasErrorBrand(error, "NodeTimeoutError");
}

const NODE_ERROR_BRAND: unique symbol = Symbol.for("agentgraph.NodeError") as never;

/**
 * What a node's `errorHandler` receives (`addNode(name, fn, { errorHandler })`): the failed
 * node's name and the error it threw. The handler runs only once the node's `retryPolicy` is
 * exhausted; it may return a state update or a `Command({ update, goto })` to route to a
 * recovery node.
 *
 * @example
 * ```ts
 * const handler = (state: State, failure: NodeError) =>
 *   new Command({ update: { status: `recovered from ${failure.node}` }, goto: "finalize" });
 * ```
 */
export class NodeError {
  /** Name of the node whose run failed. */
  readonly node: string;
  /** What the node threw. */
  readonly error: Error;
  constructor(node: string, error: Error) {
    this.node = node;
    this.error = error;
  }
  /** The class name LangGraph.js checks in `isNodeError`. */
  static get unminifiable_name(): string {
    return "NodeError";
  }
  get [NODE_ERROR_BRAND](): true {
    return true;
  }
}

/** True for a {@link NodeError}, from any package copy. */
export function isNodeError(value: unknown): value is NodeError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { [NODE_ERROR_BRAND]?: unknown })[NODE_ERROR_BRAND] === true
  );
}

/**
 * A run stopped at a superstep boundary because `RunControl.requestDrain()` was called (from a
 * SIGTERM handler, a supervisor, or a node via `config.control`). The checkpoint of the last
 * finished step is saved: resume the run with `invoke(null, config)` on the same thread.
 *
 * @example
 * ```ts
 * const control = new RunControl();
 * process.once("SIGTERM", () => control.requestDrain("sigterm"));
 * try {
 *   await graph.invoke(input, { ...config, control });
 * } catch (e) {
 *   if (!isGraphDrained(e)) throw e; // else: resume later with graph.invoke(null, config)
 * }
 * ```
 */
export class GraphDrained extends GraphBubbleUp {
  static override readonly brandName: string = "GraphDrained";
  /** The reason given to `requestDrain` (default `"shutdown"`). */
  readonly reason: string;
  constructor(reason = "shutdown", options: AgentGraphErrorOptions = {}) {
    super(`Graph drained: ${reason}`, {
      ...options,
      code: options.code ?? options.lc_error_code ?? "GRAPH_DRAINED",
    });
    this.reason = reason;
    // `name` after `reason`, the order of LangGraph.js's own keys
    Reflect.deleteProperty(this, "name");
    this.name = GraphDrained.brandName;
  }
}

/** True for a {@link GraphDrained}, from any package copy. */
export function isGraphDrained(error: unknown): error is GraphDrained {
  return hasErrorBrand(error, "GraphDrained");
}

/** Why a strict resume was refused (see {@link UnknownInterruptError}). */
export type UnknownInterruptReason = "not_pending" | "empty_map" | "ambiguous";

/**
 * Raised in strict resume mode (`configurable.__pregel_strict_resume: true`) when a resume does
 * not match the pending interrupts. `reason` says how: `"not_pending"` (the resume map names
 * interrupts that are not pending, listed in `interruptIds`), `"empty_map"` (the resume is an
 * empty map), or `"ambiguous"` (one value while several interrupts are pending). `pendingIds`
 * lists the interrupts still waiting for an answer; nothing was written, so they can still be
 * answered.
 *
 * @example
 * ```ts
 * try {
 *   await graph.invoke(new Command({ resume: { [id]: "yes" } }), {
 *     configurable: { thread_id, __pregel_strict_resume: true },
 *   });
 * } catch (e) {
 *   if (isUnknownInterruptError(e)) console.log(e.reason, e.pendingIds);
 * }
 * ```
 */
export class UnknownInterruptError extends AgentGraphError {
  static override readonly brandName: string = "UnknownInterruptError";
  static override readonly lcErrorCodeAsGiven: boolean = true;
  readonly reason: UnknownInterruptReason;
  readonly interruptIds: string[];
  readonly pendingIds: string[];
  constructor(
    message: string,
    fields: {
      reason: UnknownInterruptReason;
      interruptIds?: string[] | undefined;
      pendingIds?: string[] | undefined;
    } & AgentGraphErrorOptions,
  ) {
    const { reason, interruptIds, pendingIds, ...options } = fields;
    super(message, options);
    this.reason = reason;
    this.interruptIds = interruptIds ?? [];
    this.pendingIds = pendingIds ?? [];
  }
  /** The class name LangGraph.js checks in `isUnknownInterruptError`. */
  static get unminifiable_name(): string {
    return "UnknownInterruptError";
  }
}

/** True for an {@link UnknownInterruptError} (checked by name, as LangGraph.js does). */
export function isUnknownInterruptError(error: unknown): error is UnknownInterruptError {
  return error != null && (error as { name?: unknown }).name === "UnknownInterruptError";
}

/**
 * @deprecated Never thrown (kept because LangGraph.js exports it): several subgraphs in one
 * node are supported. Its `name` is `"MultipleSubgraphError"`, as in LangGraph.js.
 */
export class MultipleSubgraphsError extends AgentGraphError {
  static override readonly brandName: string = "MultipleSubgraphError";
  static override readonly lcErrorCodeAsGiven: boolean = true;
  constructor(message = "", options: AgentGraphErrorOptions = {}) {
    super(message, options);
  }
  static get unminifiable_name(): string {
    return "MultipleSubgraphError";
  }
}

/** The registered key of {@link getSubgraphsSeenSet}'s set (LangGraph.js's, so both share it). */
const SUBGRAPHS_SEEN: unique symbol = Symbol.for("LG_CHECKPOINT_SEEN_NS_SET") as never;

/**
 * LangGraph.js's set of subgraph namespaces seen, used there to detect several subgraphs in one
 * node (which agentgraph supports: nothing here reads it). Exported so that code and tests written
 * for LangGraph.js (a `getSubgraphsSeenSet().clear()` between tests) run unchanged; it is one set
 * per process, on `globalThis`, as there.
 *
 * @example
 * ```ts
 * beforeEach(() => getSubgraphsSeenSet().clear());
 * ```
 */
export function getSubgraphsSeenSet(): Set<unknown> {
  const holder = globalThis as unknown as Record<symbol, Set<unknown> | undefined>;
  let seen = holder[SUBGRAPHS_SEEN];
  if (seen === undefined) {
    seen = new Set();
    holder[SUBGRAPHS_SEEN] = seen;
  }
  return seen;
}

/** An error raised in a remote graph (LangGraph.js `RemoteException`). */
export class RemoteException extends AgentGraphError {
  static override readonly brandName: string = "RemoteException";
  static override readonly lcErrorCodeAsGiven: boolean = true;
  constructor(message = "", options: AgentGraphErrorOptions = {}) {
    super(message, options);
  }
  static get unminifiable_name(): string {
    return "RemoteException";
  }
}

/** LangGraph.js's mark of an error raised because a resume value failed its `responseSchema`. */
const INVALID_RESUME: unique symbol = Symbol.for("langgraph.invalid_resume") as never;

/**
 * @internal Marks `error` as "the resume value did not match the interrupt's `responseSchema`"
 * (what `interrupt()` does before rethrowing the schema's error). Objects only.
 */
export function _markInvalidResume(error: unknown): void {
  if (typeof error === "object" && error !== null) {
    Object.defineProperty(error, INVALID_RESUME, { value: true });
  }
}

/**
 * Whether `error` was thrown because a resume value did not match the interrupt's
 * `responseSchema`, directly or as the `cause` of a wrapping error (up to 10 levels). The other
 * tasks of the step are not aborted: the resume fails once they finish, and the interrupt can
 * be answered again.
 *
 * @example
 * ```ts
 * try {
 *   await graph.invoke(new Command({ resume: answer }), config);
 * } catch (e) {
 *   if (isInvalidResume(e)) await graph.invoke(new Command({ resume: fixedAnswer }), config);
 * }
 * ```
 */
export function isInvalidResume(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 10; depth += 1) {
    if (typeof current !== "object" || current === null) return false;
    if ((current as { [INVALID_RESUME]?: unknown })[INVALID_RESUME] === true) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
