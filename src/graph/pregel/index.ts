export {
  getConfig,
  getCurrentTaskInput,
  getStore,
  getWriter,
  type InferWriterType,
  pushTaskMessage,
  readCurrentState,
  setTaskInputView,
  writer,
} from "./context-helpers.js";
export { isInterrupted } from "./interrupted.js";
export { MessagesStreamHandler, setTokenChunkFactory } from "./messages-stream.js";
export { isPregel, Pregel, type PregelParams } from "./pregel.js";
export {
  type ContextValidator,
  DEFAULT_RECURSION_LIMIT,
  type PregelOptions,
  type ResolvedRun,
  resolveRunConfig,
} from "./run-config.js";
export type { GetStateOptions, PregelTaskDescription, StateSnapshot, StateUpdate } from "./state.js";
export type { StreamEvent, StreamEventsFilter, StreamEventsOptions } from "./stream-events.js";
export type { StreamEventsV3Options, StreamTransformerFactory } from "./stream-events-v3.js";
