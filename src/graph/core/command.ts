import { isSend, Send, type SendInterface } from "./send.js";

/** Where a {@link Command} goes: a node name, a `Send`, or a list of them. */
export type CommandGoto<Node extends string = string> = Node | Send<Node> | (Node | Send<Node>)[];

/** The fields of a {@link Command}. */
export interface CommandParams<
  Resume = unknown,
  Update = Record<string, unknown>,
  Node extends string = string,
> {
  /** A state update, as a node would return it (an object, or `[key, value]` pairs). */
  update?: Update | [string, unknown][];
  /**
   * Nodes to run next (in addition to the node's static edges): names and `Send`s. A plain
   * `{ node, args }` object (a `Send` as JSON carries it) is made a `Send`.
   */
  goto?: CommandGoto<Node> | SendInterface<Node> | (Node | Send<Node> | SendInterface<Node>)[];
  /** The answer to a pending `interrupt()`: a value, or a map from interrupt id to value. */
  resume?: Resume;
  /** `Command.PARENT` to address the parent graph from inside a subgraph. */
  graph?: string;
}

/** The key under which a {@link CommandInstance} keeps the parameters it was made with. */
export const COMMAND_SYMBOL: unique symbol = Symbol.for("langgraph.command") as never;

/**
 * The base class of {@link Command} (LangGraph.js `CommandInstance`): it keeps the parameters the
 * command was made with under {@link COMMAND_SYMBOL} (not enumerable, so copies and equality
 * checks of a command see its fields only).
 */
export class CommandInstance<
  Resume = unknown,
  Update = Record<string, unknown>,
  Node extends string = string,
> {
  declare [COMMAND_SYMBOL]: CommandParams<Resume, Update, Node>;
  constructor(args: CommandParams<Resume, Update, Node>) {
    Object.defineProperty(this, COMMAND_SYMBOL, { value: args, writable: true, configurable: true });
  }
}

/**
 * Updates state and routes in one value. A node may return a `Command` instead of an update;
 * as graph input, `new Command({ resume })` answers an interrupt.
 *
 * @example
 * ```ts
 * graph.addNode("triage", (s) => new Command({ update: { seen: true }, goto: s.urgent ? "page" : "queue" }), {
 *   ends: ["page", "queue"],
 * });
 * await graph.invoke(new Command({ resume: "approved" }), config);
 * ```
 */
export class Command<
  Resume = unknown,
  Update = Record<string, unknown>,
  Node extends string = string,
> extends CommandInstance<Resume, Update, Node> {
  /** Value of `graph` that sends the command to the parent graph. */
  static readonly PARENT = "__parent__";

  readonly lg_name = "Command";
  /** Marks a command a tool returns as its output as it is (LangGraph.js's flag, always `true`). */
  readonly lc_direct_tool_output = true;
  // (declared in LangGraph.js's order, which is the order of the instance's keys)
  readonly graph?: string;
  readonly update?: Update | [string, unknown][];
  readonly resume?: Resume;
  readonly goto: (Node | Send<Node>)[];

  constructor(params: CommandParams<Resume, Update, Node> = {}) {
    super(params);
    if (params.update !== undefined) this.update = params.update;
    if (params.resume !== undefined) this.resume = params.resume;
    if (params.graph !== undefined) this.graph = params.graph;
    const goto = params.goto;
    // as LangGraph.js: a falsy goto (null, "", 0) means no goto
    const list: (Node | Send<Node> | SendInterface<Node>)[] = !goto
      ? []
      : Array.isArray(goto)
        ? goto
        : [goto];
    this.goto = list.some(isPlainSendShape) ? list.map(asGotoTarget) : (list as (Node | Send<Node>)[]);
  }

  /** The update as `[key, value]` pairs. */
  updateEntries(): [string, unknown][] {
    const update = this.update;
    if (update === undefined || update === null) return [];
    if (Array.isArray(update)) return update;
    return Object.entries(update as Record<string, unknown>);
  }

  /**
   * The command as LangGraph.js writes it: `lg_name`, `update`, `resume` (either `undefined`
   * when not given) and `goto`, always a list (`[]` for none); the target `graph` is left out.
   */
  toJSON(): { lg_name: "Command"; update: unknown; resume: unknown; goto: unknown[] } {
    return {
      lg_name: "Command",
      update: this.update,
      resume: this.resume,
      goto: this.goto.map((g) => (isSend(g) ? g.toJSON() : g)),
    };
  }
}

/**
 * A goto target given as a plain object with a string `node` and defined `args` (a `Send` that
 * went through JSON, or written by hand): LangGraph.js rebuilds these as `Send`s.
 */
function isPlainSendShape(value: unknown): value is SendInterface {
  if (typeof value !== "object" || value === null || value instanceof Send) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const shape = value as { node?: unknown; args?: unknown };
  return typeof shape.node === "string" && shape.args !== undefined;
}

function asGotoTarget<Node extends string>(
  target: Node | Send<Node> | SendInterface<Node>,
): Node | Send<Node> {
  if (!isPlainSendShape(target)) return target as Node | Send<Node>;
  const timeout = target.timeout;
  return timeout === undefined
    ? new Send(target.node, target.args)
    : new Send(target.node, target.args, { timeout });
}

/** True for a {@link Command} from any copy of the library. */
export function isCommand(value: unknown): value is Command {
  return (
    value instanceof Command ||
    (typeof value === "object" && value !== null && (value as { lg_name?: unknown }).lg_name === "Command")
  );
}

/** The `[key, value]` pairs of a command's update, whatever copy of the library made it. */
export function commandUpdateEntries(command: Command): [string, unknown][] {
  if (typeof command.updateEntries === "function") return command.updateEntries();
  const update = (command as { update?: unknown }).update;
  if (update === undefined || update === null) return [];
  if (Array.isArray(update)) return update as [string, unknown][];
  return Object.entries(update as Record<string, unknown>);
}

/** The goto targets of a command, whatever copy of the library made it. */
export function commandGotoList(command: Command): (string | Send)[] {
  const goto = (command as { goto?: unknown }).goto;
  if (goto === undefined || goto === null) return [];
  return Array.isArray(goto) ? (goto as (string | Send)[]) : [goto as string | Send];
}
