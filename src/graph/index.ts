export * from "./builder/index.js";
export * from "./cache/index.js";
export * from "./channels/index.js";
export * from "./checkpoint/index.js";
export * from "./core/index.js";
export * from "./func/index.js";
export {
  type CachePolicy,
  type Durability,
  type ExecutionInfo,
  type InterruptOptions,
  interrupt,
  type LangGraphRunnableConfig,
  type RetryPolicy,
  RunControl,
  type StreamWriter,
  type TimeoutPolicy,
} from "./loop/index.js";
export {
  getConfig,
  getCurrentTaskInput,
  getStore,
  getWriter,
  isInterrupted,
  isPregel,
  Pregel,
  type PregelOptions,
  type PregelParams,
  type PregelTaskDescription,
  pushTaskMessage,
  readCurrentState,
  type StateSnapshot,
  type StateUpdate,
  type StreamEvent,
  type StreamEventsFilter,
  type StreamEventsOptions,
  writer,
} from "./pregel/index.js";
export * from "./store/index.js";
export { IterableReadableStream, type StreamMode, type ToolsStreamEvent } from "./stream/index.js";
