import { hasHandlers } from "../../shared/index.js";
import {
  BRANCH_PREFIX,
  Command,
  commandGotoList,
  commandUpdateEntries,
  END,
  InvalidUpdateError,
  isCommand,
  isSend,
  ParentCommand,
  type Send,
  TASKS,
} from "../core/index.js";
import {
  type InnerRun,
  type LangGraphRunnableConfig,
  type RunningTask,
  taskAttemptHooks,
} from "../loop/index.js";
import { branchDestination } from "./types.js";

/** A conditional edge, compiled. */
export interface CompiledBranch {
  readonly path: (state: unknown, config: LangGraphRunnableConfig<unknown>) => unknown;
  /** Router result → target node; undefined when the router names nodes directly. */
  readonly pathMap: Readonly<Record<string, string>> | undefined;
  /** The router does not modify the state it reads (see `readWithWrites`). */
  readonly readOnly: boolean;
}

/** What a node's writers need to know about the graph. */
export interface WriterSpec {
  readonly node: string;
  /** Keys of the graph state (writes to other keys are dropped). */
  readonly stateKeys: ReadonlySet<string>;
  /** Every node of the graph (valid routing targets). */
  readonly nodes: ReadonlySet<string>;
  /** Channel writes of the node's static edges (`branch:to:x`, `join:a+b:c`). */
  readonly edgeWrites: readonly (readonly [string, unknown])[];
  readonly branches: readonly CompiledBranch[];
  /** Keys conditional edges read. */
  readonly readKeys: readonly string[];
  /**
   * Parses an update with the state schema (Zod state): returns the parsed update, whose values
   * (coerced, transformed, nested defaults filled, unknown nested keys stripped) are what is
   * written, for the keys the update writes only, as in LangGraph.js; throws the schema's error.
   */
  readonly validate: ((update: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** Validates one written value against its field (StateSchema state) and returns what to write. */
  readonly check?: ((key: string, value: unknown) => unknown) | undefined;
}

/** Pushes the state writes of a node's output; returns where its `Command`s route. */
export function writeUpdate(
  output: unknown,
  spec: WriterSpec,
  writes: [string, unknown][],
): (string | Send)[] {
  // any falsy output (`false` from `cond && { … }`, 0, "") means no update, as in LangGraph.js
  if (!output) return [];
  if (isCommand(output)) return writeCommand(output, spec, writes);
  if (Array.isArray(output)) {
    if (!output.some(isCommand)) throw invalidReturn(spec.node, output);
    const goto: (string | Send)[] = [];
    // a command for the parent graph goes up once the list's other updates are written (they
    // are the node's writes, as in LangGraph.js)
    let parent: Command | undefined;
    for (const item of output) {
      if (isCommand(item)) {
        if (item.graph === Command.PARENT) parent ??= item;
        else goto.push(...writeCommand(item, spec, writes));
      } else if (typeof item === "object" && item !== null && !Array.isArray(item)) {
        const validate = spec.validate;
        const update = validate === undefined ? item : validate(item as Record<string, unknown>);
        writeEntries(Object.entries(update as Record<string, unknown>), spec, writes);
      } else if (item) throw invalidReturn(spec.node, item);
    }
    if (parent !== undefined) throw new ParentCommand(parent);
    return goto;
  }
  if (typeof output !== "object") throw invalidReturn(spec.node, output);
  const validate = spec.validate;
  const update = validate === undefined ? output : validate(output as Record<string, unknown>);
  writeEntries(Object.entries(update as Record<string, unknown>), spec, writes);
  return [];
}

/**
 * A command's update entries as parsed by the state schema (Zod state). A list-form update that
 * writes one key more than once is parsed entry by entry, so each of its writes is kept.
 */
function parsedEntries(
  entries: [string, unknown][],
  validate: (update: Record<string, unknown>) => Record<string, unknown>,
): [string, unknown][] {
  const keys = new Set<string>();
  for (let i = 0; i < entries.length; i++) keys.add((entries[i] as [string, unknown])[0]);
  if (keys.size === entries.length) return Object.entries(validate(Object.fromEntries(entries)));
  const out: [string, unknown][] = [];
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i] as [string, unknown];
    const parsed = validate({ [key]: value });
    if (Object.hasOwn(parsed, key)) out.push([key, parsed[key]]);
  }
  return out;
}

function writeCommand(command: Command, spec: WriterSpec, writes: [string, unknown][]): (string | Send)[] {
  if (command.graph === Command.PARENT) throw new ParentCommand(command);
  const entries = commandUpdateEntries(command);
  const validate = spec.validate;
  writeEntries(
    validate !== undefined && entries.length > 0 ? parsedEntries(entries, validate) : entries,
    spec,
    writes,
  );
  return commandGotoList(command);
}

function writeEntries(entries: [string, unknown][], spec: WriterSpec, writes: [string, unknown][]): void {
  const check = spec.check;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as [string, unknown];
    if (!spec.stateKeys.has(entry[0])) continue;
    writes.push([entry[0], check === undefined ? entry[1] : check(entry[0], entry[1])]);
  }
}

function invalidReturn(node: string, value: unknown): InvalidUpdateError {
  const kind = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  return new InvalidUpdateError(
    `Expected node "${node}" to return an object or an array containing at least one Command object, received ${kind}. Return a state update such as { key: value }, a Command, or null.`,
    { lc_error_code: "INVALID_GRAPH_NODE_RETURN_VALUE" },
  );
}

/** Pushes the writes that send control to `targets` (node names, `END`, or `Send`s). */
export function writeRouting(
  targets: readonly unknown[],
  spec: WriterSpec,
  writes: [string, unknown][],
  origin: string,
): void {
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i];
    if (isSend(target)) {
      if (target.node === END) {
        throw new InvalidUpdateError(
          `Cannot send a packet to the END node: ${origin} sent one. To end this branch, route to END instead of sending to it.`,
        );
      }
      if (!spec.nodes.has(target.node)) {
        // LangGraph.js checks this as the node's writes are made, so the node's task fails
        throw new InvalidUpdateError(
          `Invalid node name ${JSON.stringify(target.node)} in Send packet. Send to one of the graph's nodes: ${[
            ...spec.nodes,
          ]
            .map((n) => `"${n}"`)
            .join(", ")}.`,
        );
      }
      writes.push([TASKS, target]);
    } else if (target === END) {
      // routing to END ends this branch
    } else if (!target) {
      // as LangGraph.js, whose routing treats a Command's goto list like a router's result
      throw new InvalidUpdateError(
        `Branch condition returned unknown or null destination: ${origin} lists ${describeRouted(target)}. Name a node, END or a Send.`,
      );
    } else if (typeof target === "string" && spec.nodes.has(target)) {
      writes.push([BRANCH_PREFIX + target, null]);
    } else {
      throw new InvalidUpdateError(
        `${origin} routed to ${JSON.stringify(target)}, which is not a node of this graph. Route to one of: ${[
          ...spec.nodes,
        ]
          .map((n) => `"${n}"`)
          .join(", ")}, or END.`,
      );
    }
  }
}

/** LangGraph.js warns (and still interrupts) when a routing function throws a `NodeInterrupt`. */
function warnIfNodeInterrupt(error: unknown): void {
  if ((error as { name?: unknown } | null)?.name === "NodeInterrupt") {
    console.warn(
      "[WARN]: 'NodeInterrupt' thrown in conditional edge. This is likely a bug in your graph implementation.\n" +
        "NodeInterrupt should only be thrown inside a node, not in edge conditions.",
    );
  }
}

/**
 * Evaluates the node's conditional edges against the fresh state and pushes their routing writes:
 * synchronously while the routing functions are synchronous (the usual case: no extra turn).
 */
export function writeBranches(task: RunningTask, spec: WriterSpec, from = 0): void | Promise<void> {
  const branches = spec.branches;
  for (let i = from; i < branches.length; i++) {
    const branch = branches[i] as (typeof branches)[number];
    const state = task.readFresh(spec.readKeys, branch.readOnly);
    // chain callbacks hear the routing function as a run inside the node's (as in LangChain.js)
    if (hasHandlers(task.config.callbacks)) {
      const hooks = taskAttemptHooks(task);
      if (hooks !== undefined)
        return writeReportedBranches(task, spec, i, state, hooks.innerRunStarted("RunnableLambda", state));
    }
    let result: unknown;
    try {
      result = branch.path(state, task.config);
    } catch (error) {
      warnIfNodeInterrupt(error);
      throw error;
    }
    if (result instanceof Promise) {
      return result.then(
        (resolved: unknown) => {
          routeBranch(resolved, branch, task, spec);
          return writeBranches(task, spec, i + 1);
        },
        (error: unknown) => {
          warnIfNodeInterrupt(error);
          throw error;
        },
      );
    }
    routeBranch(result, branch, task, spec);
  }
  return undefined;
}

/** {@link writeBranches} from branch `i` on, whose routing function's run chain callbacks hear. */
function writeReportedBranches(
  task: RunningTask,
  spec: WriterSpec,
  i: number,
  state: unknown,
  run: InnerRun,
): void | Promise<void> {
  const branch = spec.branches[i] as WriterSpec["branches"][number];
  const failed = (error: unknown): never => {
    warnIfNodeInterrupt(error);
    run.error(error);
    throw error;
  };
  let result: unknown;
  try {
    result = branch.path(state, task.config);
  } catch (error) {
    return failed(error);
  }
  if (result instanceof Promise) {
    return result.then((resolved: unknown) => {
      run.end(resolved);
      routeBranch(resolved, branch, task, spec);
      return writeBranches(task, spec, i + 1);
    }, failed);
  }
  run.end(result);
  routeBranch(result, branch, task, spec);
  return writeBranches(task, spec, i + 1);
}

function routeBranch(
  result: unknown,
  branch: WriterSpec["branches"][number],
  task: RunningTask,
  spec: WriterSpec,
): void {
  const list = Array.isArray(result) ? result : [result];
  const targets: unknown[] = [];
  const pathMap = branch.pathMap;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (isSend(item)) {
      targets.push(item);
      continue;
    }
    const destination = branchDestination(item, pathMap);
    if (destination === undefined) {
      throw new InvalidUpdateError(
        pathMap === undefined
          ? `Branch condition returned unknown or null destination: conditional edge from "${spec.node}" returned ${describeRouted(item)}. Return a node name, END, a Send, or a list of them (a routing function that ends without a return statement returns undefined).`
          : `Branch condition returned unknown or null destination: conditional edge from "${spec.node}" returned ${describeRouted(item)}, which is not in its path map (${Object.keys(
              pathMap,
            )
              .map((k) => JSON.stringify(k))
              .join(", ")}).`,
      );
    }
    targets.push(destination);
  }
  writeRouting(targets, spec, task.writes, `The conditional edge from "${spec.node}"`);
}

/** A routed value as an error message shows it (`undefined` has no JSON form). */
function describeRouted(item: unknown): string {
  return item === undefined ? "undefined" : (JSON.stringify(item) ?? String(item));
}

/** The writers of a node: its update, its `Command` routing, its static edges, then its conditional edges. */
export function makeWriters(spec: WriterSpec): (output: unknown, task: RunningTask) => void | Promise<void> {
  return (output, task) => {
    const writes = task.writes;
    const goto = writeUpdate(output, spec, writes);
    if (goto.length > 0) writeRouting(goto, spec, writes, `Command.goto of node "${spec.node}"`);
    const edgeWrites = spec.edgeWrites;
    for (let i = 0; i < edgeWrites.length; i++) {
      const write = edgeWrites[i] as (typeof edgeWrites)[number];
      writes.push([write[0], write[1]]);
    }
    if (spec.branches.length > 0) return writeBranches(task, spec);
    return undefined;
  };
}
