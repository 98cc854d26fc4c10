export * from "./builder/index.js";
export * from "./channels/index.js";
export * from "./checkpoint/index.js";
export * from "./core/index.js";
export * from "./func/index.js";
export type {
  CachePolicy,
  ExecutionInfo,
  LangGraphRunnableConfig,
  RetryPolicy,
  StreamWriter,
} from "./loop/index.js";
export {
  getConfig,
  getCurrentTaskInput,
  getStore,
  getWriter,
  isPregel,
  Pregel,
  type PregelOptions,
  type PregelParams,
} from "./pregel/index.js";
export { IterableReadableStream, type StreamMode } from "./stream/index.js";
