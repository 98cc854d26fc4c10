/**
 * A packet for one node: `new Send("worker", args)` schedules a task for `worker` in the next
 * superstep whose input is `args` instead of the graph state. Return a list of them from a
 * conditional edge (or in `Command.goto`) to fan out, map-reduce style.
 *
 * @example
 * ```ts
 * graph.addConditionalEdges("plan", (s) => s.items.map((item) => new Send("worker", { item })));
 * ```
 */
export class Send<Node extends string = string, Args = unknown> {
  readonly lg_name = "Send";
  readonly node: Node;
  readonly args: Args;

  constructor(node: Node, args: Args) {
    this.node = node;
    this.args = args;
  }

  toJSON(): { lg_name: "Send"; node: Node; args: Args } {
    return { lg_name: "Send", node: this.node, args: this.args };
  }
}

/**
 * The plain-object shape of a {@link Send} (LangGraph.js `SendInterface`), as it arrives in
 * JSON: `Command.goto` accepts it and turns it into a `Send`.
 */
export interface SendInterface<Node extends string = string, Args = unknown> {
  node: Node;
  args: Args;
}

/** True for a {@link Send} from any copy of the library. */
export function isSend(value: unknown): value is Send {
  return (
    value instanceof Send ||
    (typeof value === "object" && value !== null && (value as { lg_name?: unknown }).lg_name === "Send")
  );
}
