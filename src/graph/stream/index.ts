export { ChatModelStreamImpl, setAssembledMessageFactory } from "./chat-model-stream.js";
export { type GraphStreamPart, toGraphEventStream } from "./event-stream.js";
export {
  type CreateGraphRunStreamOptions,
  createGraphRunStream,
  GraphRunStream,
  type InferExtensions,
  SubgraphRunStream,
} from "./graph-run-stream.js";
export { attachDirectSource, type DirectSource, IterableReadableStream } from "./iterable-readable-stream.js";
export {
  isNativeTransformer,
  type NativeStreamTransformer,
  type StreamEmitter,
  type StreamTransformer,
} from "./mux.js";
export { graphNamespace, taskCheckpointNs } from "./namespace.js";
export {
  type AgentStatus,
  type CheckpointEnvelope,
  type ConvertToProtocolEventOptions,
  convertToProtocolEvent,
  type InterruptPayload,
  isCheckpointEnvelope,
  type LifecycleCause,
  type LifecycleData,
  type MessagesEventData,
  type Namespace,
  type ProtocolContentBlock,
  type ProtocolEvent,
  STREAM_EVENTS_V3_MODES,
  type ToolCallStatus,
  type ToolCallStream,
  type ToolsEventData,
  type UpdatesEventData,
  type UsageInfo,
} from "./protocol.js";
export { type ChunkConsumer, normalizeStreamModes, StreamSink } from "./sink.js";
export { EventLog, StreamChannel } from "./stream-channel.js";
export { type ToolsStreamEvent, ToolsStreamHandler } from "./tools-stream.js";
export {
  type ChatModelStreamHandle,
  type ChatModelStreamItem,
  createLifecycleTransformer,
  createMessagesTransformer,
  createSubgraphDiscoveryTransformer,
  createValuesTransformer,
  filterLifecycleEntries,
  filterSubgraphHandles,
  type LifecycleEntry,
  type LifecycleProjection,
  type LifecycleTransformerOptions,
  type SubgraphDiscoveryProjection,
  type SubgraphDiscoveryTransformerOptions,
} from "./transformers.js";
export { ALWAYS_PROPAGATED_MODES, STREAM_MODES, type StreamMode } from "./types.js";
