import { AgentGraphError, type AgentGraphErrorOptions, hasErrorBrand } from "../../shared/index.js";
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
  constructor(message: string, options: AgentGraphErrorOptions = {}) {
    super(message, { code: "GRAPH_RECURSION_LIMIT", ...options });
  }
}

/**
 * A write could not be applied: several values for a single-value channel in one step,
 * a node returned something that is not a state update, a `Send` to an unknown node…
 * The message names the key and the fix.
 */
export class InvalidUpdateError extends AgentGraphError {
  static override readonly brandName: string = "InvalidUpdateError";
  constructor(message: string, options: AgentGraphErrorOptions = {}) {
    super(message, { code: "INVALID_UPDATE", ...options });
  }
}

/** A graph was invoked without input and there is no saved state to resume from. */
export class EmptyInputError extends AgentGraphError {
  static override readonly brandName: string = "EmptyInputError";
}

/**
 * Thrown by a channel's `get()` when it holds no value. The engine uses it as a signal
 * (an empty channel is skipped when state is read), so it carries no stack trace.
 */
export class EmptyChannelError extends AgentGraphError {
  static override readonly brandName: string = "EmptyChannelError";
  constructor(message = "The channel is empty.") {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/** A graph-level misconfiguration found while running (e.g. a missing checkpointer). */
export class GraphValueError extends AgentGraphError {
  static override readonly brandName: string = "GraphValueError";
}

/**
 * A graph definition is invalid. Raised by the builder and by `compile()`, never during a
 * run: unknown nodes in edges, reserved names, duplicates, missing entry point…
 */
export class InvalidGraphError extends GraphValueError {
  static override readonly brandName: string = "InvalidGraphError";
  constructor(message: string, options: AgentGraphErrorOptions = {}) {
    super(message, { code: "INVALID_GRAPH", ...options });
  }
}

/**
 * `new StateGraph(...)` was given something that is not a state schema. The message starts
 * with LangGraph.js's text and says what was received.
 */
export class StateGraphInputError extends InvalidGraphError {
  static override readonly brandName: string = "StateGraphInputError";
  constructor(message: string, options: AgentGraphErrorOptions = {}) {
    super(message, { code: "INVALID_GRAPH", ...options });
  }
}

/** A node can never run because no edge leads to it. */
export class UnreachableNodeError extends InvalidGraphError {
  static override readonly brandName: string = "UnreachableNodeError";
  constructor(message: string, options: AgentGraphErrorOptions = {}) {
    super(message, { code: "UNREACHABLE_NODE", ...options });
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
  get is_bubble_up(): true {
    return true;
  }
}

/** Raised by `interrupt()` to pause a run; `invoke` turns it into `__interrupt__` output. */
export class GraphInterrupt extends GraphBubbleUp {
  static override readonly brandName: string = "GraphInterrupt";
  readonly interrupts: Interrupt[];
  constructor(interrupts: Interrupt[] = [], options: AgentGraphErrorOptions = {}) {
    super(JSON.stringify(interrupts, null, 2), { code: "GRAPH_INTERRUPT", ...options });
    this.interrupts = interrupts;
  }
}

/**
 * Raised from inside a node to pause the run with a value, without resume support
 * (prefer `interrupt()`).
 */
export class NodeInterrupt extends GraphInterrupt {
  static override readonly brandName: string = "NodeInterrupt";
  constructor(value: unknown, options: AgentGraphErrorOptions = {}) {
    super([{ value, id: "placeholder-id" }], options);
  }
}

/** Carries a `Command({ graph: Command.PARENT })` from a subgraph node to its parent graph. */
export class ParentCommand extends GraphBubbleUp {
  static override readonly brandName: string = "ParentCommand";
  readonly command: unknown;
  constructor(command: unknown) {
    super("Command sent to the parent graph.", { code: "PARENT_COMMAND" });
    this.command = command;
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
