export { executeTask } from "./execute-task.js";
export {
  GraphCallbackHandler,
  type GraphInterruptEvent,
  type GraphLifecycleEvent,
  type GraphLifecycleStatus,
  type GraphResumeEvent,
  gateNodeStart,
  type InnerRun,
  type InnerRunName,
  TASK_ATTEMPT_HOOKS,
  type TaskAttemptHooks,
  taskAttemptHooks,
} from "./graph-callbacks.js";
export {
  type InferInterruptInputType,
  type InferInterruptResumeType,
  type InterruptOptions,
  interrupt,
  interruptId,
} from "./interrupts.js";
export {
  HIDDEN_TASK_EVENT,
  savedTaskResult,
  TASK_NOT_RUN,
  TASK_RUN_ERROR,
  TASK_RUN_INFO,
  TASK_RUN_METADATA,
  TASK_RUN_OUTPUT,
  taskMetadata,
  taskResultPayload,
  taskStartPayload,
  updatesPayload,
} from "./output.js";
export {
  type Durability,
  groupSavedWrites,
  LoopPersistence,
  type PersistenceParams,
  type SavedWrites,
  writtenSaves,
} from "./persistence.js";
export { defaultRetryOn } from "./retry.js";
export { RunControl } from "./run-control.js";
export { afterTurns, type RunnerContext, runTasks } from "./runner.js";
export { type LoopGraph, type LoopParams, mapInput, PregelLoop, shouldInterrupt } from "./superstep-loop.js";
export { coerceTimeoutPolicy } from "./timeout.js";
export {
  type CachePolicy,
  type CallOptions,
  CURRENT_TASK,
  type ExecutionInfo,
  type GraphRunConfig,
  type LangGraphRunnableConfig,
  type MessagesObserver,
  NODE_ERROR,
  type NodeStore,
  PARENT_RUN,
  type ParentRunLink,
  PREVIOUS_STATE,
  type PregelNode,
  type RetryPolicy,
  type RunningTask,
  type Runtime,
  type StreamWriter,
  type TaskCall,
  type TimeoutPolicy,
} from "./types.js";
