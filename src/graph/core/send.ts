import { coerceTimeoutPolicy, type TimeoutPolicy } from "./timeout-policy.js";

/** Options of a {@link Send} (LangGraph.js `SendOptions`). */
export interface SendOptions {
  /**
   * Timeout of the one task this `Send` starts, taking precedence over the target node's own
   * `timeout`: milliseconds (a hard `runTimeout`) or a {@link TimeoutPolicy}. Each attempt of
   * the task gets it; it is stored with the `Send` in checkpoints, so a resumed run keeps it.
   */
  timeout?: number | TimeoutPolicy | undefined;
}

/** What {@link Send.toJSON} returns (and what a `Send` looks like in JSON). */
export interface SendJson<Node extends string = string, Args = unknown> {
  lg_name: "Send";
  node: Node;
  args: Args;
  timeout: TimeoutPolicy | undefined;
}

/**
 * A packet for one node: `new Send("worker", args)` schedules a task for `worker` in the next
 * superstep whose input is `args` instead of the graph state. Return a list of them from a
 * conditional edge (or in `Command.goto`) to fan out, map-reduce style.
 *
 * A third argument `{ timeout }` limits that one task (milliseconds, or a {@link TimeoutPolicy});
 * it takes precedence over the target node's `timeout`. An invalid timeout throws an
 * `InvalidGraphError` here, when the `Send` is made.
 *
 * @example
 * ```ts
 * graph.addConditionalEdges("plan", (s) => s.items.map((item) => new Send("worker", { item })));
 * // at most 5 s for this task, whatever the worker node's own timeout
 * new Send("worker", { item }, { timeout: 5_000 });
 * ```
 */
export class Send<Node extends string = string, Args = unknown> {
  readonly lg_name = "Send";
  readonly node: Node;
  readonly args: Args;
  /**
   * The task's timeout, normalized (a number given became `{ runTimeout }`); `undefined` when
   * none was given, in which case the target node's own timeout applies.
   */
  readonly timeout: TimeoutPolicy | undefined;

  constructor(node: Node, args: Args, options?: SendOptions) {
    this.node = node;
    this.args = args;
    this.timeout = coerceTimeoutPolicy(options?.timeout);
  }

  toJSON(): SendJson<Node, Args> {
    return { lg_name: "Send", node: this.node, args: this.args, timeout: this.timeout };
  }
}

/**
 * The plain-object shape of a {@link Send} (LangGraph.js `SendInterface`), as it arrives in
 * JSON: `Command.goto` accepts it and turns it into a `Send`.
 */
export interface SendInterface<Node extends string = string, Args = unknown> {
  node: Node;
  args: Args;
  /** The task's timeout (see {@link SendOptions.timeout}). */
  timeout?: number | TimeoutPolicy | undefined;
}

/** True for a {@link Send} from any copy of the library. */
export function isSend(value: unknown): value is Send {
  return (
    value instanceof Send ||
    (typeof value === "object" && value !== null && (value as { lg_name?: unknown }).lg_name === "Send")
  );
}
