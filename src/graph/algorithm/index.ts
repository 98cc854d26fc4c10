export {
  applyWrites,
  type CommittedTask,
  initialWriteState,
  type NextVersion,
  type WriteState,
} from "./apply-writes.js";
export { readWithWrites } from "./local-read.js";
export { newTrigger, type PrepareTasksContext, prepareNextTasks } from "./prepare-tasks.js";
export { readChannel, readChannels, snapshotChannel } from "./read-channels.js";
export { taskId, taskNamespace, taskPathKey } from "./task-id.js";
export type { Channels, NodeSpec, PreparedTask, TaskPath } from "./types.js";
