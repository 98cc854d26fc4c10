/** Reserved node name: where every graph starts. Edges from `START` name the entry points. */
export const START = "__start__";
/** Reserved node name: where a graph ends. Routing to `END` finishes that branch. */
export const END = "__end__";

/** `updateState(config, values, INPUT)` applies `values` as if they were fresh graph input. */
export const INPUT = "__input__";
/** `updateState(config, null, COPY)` forks the checkpoint without changing it. */
export const COPY = "__copy__";

/** Write channel holding a task's error. */
export const ERROR = "__error__";
/** Write channel holding a task's interrupts. */
export const INTERRUPT = "__interrupt__";
/** Write channel holding resume values for interrupts. */
export const RESUME = "__resume__";
/** Marker write for a task that finished without writing anything. */
export const NO_WRITES = "__no_writes__";
/** Write channel of the functional API's return value. */
export const RETURN = "__return__";
/** Channel of the functional API's previous return value. */
export const PREVIOUS = "__previous__";
/** Topic channel that carries `Send` packets to the next superstep. */
export const TASKS = "__pregel_tasks";
/** Trigger of tasks created from `Send` packets and functional-API calls. */
export const PUSH = "__pregel_push";
/** Trigger kind of tasks created because a channel they listen to changed. */
export const PULL = "__pregel_pull";
/** Task id used for writes that belong to no task (graph input, `updateState`). */
export const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";

/** Tag that hides a node from `updates`, `tasks` and `debug` streams (the `__start__` node). */
export const TAG_HIDDEN = "langsmith:hidden";
/** Tag that keeps a model call out of the `messages` stream. */
export const TAG_NOSTREAM = "langsmith:nostream";
/** Short form of {@link TAG_NOSTREAM}. */
export const TAG_NOSTREAM_SHORT = "nostream";

/** Separator between namespace levels in `checkpoint_ns` (`"parent:<id>|child:<id>"`). */
export const CHECKPOINT_NAMESPACE_SEPARATOR = "|";
/** Separator between a node name and a task id in a namespace segment. */
export const CHECKPOINT_NAMESPACE_END = ":";

/** Prefix of the trigger channel of each node. */
export const BRANCH_PREFIX = "branch:to:";

/** Writes to these channels are bookkeeping, not state. */
export const RESERVED_WRITE_CHANNELS: ReadonlySet<string> = new Set([
  NO_WRITES,
  PUSH,
  RESUME,
  INTERRUPT,
  RETURN,
  ERROR,
]);

/** Node names the builder refuses. */
export const RESERVED_NODE_NAMES: ReadonlySet<string> = new Set([
  START,
  END,
  INPUT,
  COPY,
  INTERRUPT,
  RESUME,
  ERROR,
  NO_WRITES,
  TASKS,
  PUSH,
  PULL,
]);
