import type { BaseChannel } from "../channels/index.js";
import type { PendingWrite } from "../checkpoint/index.js";
import type { TimeoutPolicy } from "../core/index.js";

/** The live channels of a run, by name. */
export type Channels = Record<string, BaseChannel>;

/** What the superstep algorithm needs to know of a node. */
export interface NodeSpec {
  readonly name: string;
  /** Channels whose new versions make the node run. */
  readonly triggers: readonly string[];
  /**
   * What the node reads: a map from input key to channel (the node's input is an object of
   * the available ones), or a list of channels (the input is the first available value).
   */
  readonly channels: readonly string[] | Readonly<Record<string, string>>;
}

/**
 * Where a task comes from, which also orders the writes of a superstep:
 * `["__pregel_pull", node]` for a node triggered by a channel, `["__pregel_push", index]`
 * for the `index`-th `Send` of the previous step, and
 * `["__pregel_push", parentPath, index, parentId, "call"]` for a functional-API call.
 */
export type TaskPath = readonly (string | number | boolean | TaskPath)[];

/** A task of the next superstep, as the algorithm prepares it. */
export interface PreparedTask<Node extends NodeSpec = NodeSpec> {
  /** Deterministic id: the same task of the same checkpoint has the same id in every process. */
  readonly id: string;
  readonly name: string;
  readonly path: TaskPath;
  readonly input: unknown;
  /** The channel that triggered the task (`["__pregel_push"]` for sends and calls). */
  readonly triggers: readonly string[];
  readonly node: Node;
  /** The task's namespace: `"<name>:<id>"`, under the parent graph's namespace. */
  readonly checkpointNs: string;
  /** Writes the task made; filled while it runs. */
  readonly writes: PendingWrite[];
  /**
   * The task's own timeout, ahead of its node's: set for the task of a `Send` given
   * `{ timeout }`. Absent otherwise (the node's timeout applies).
   */
  readonly timeout?: TimeoutPolicy | undefined;
}
