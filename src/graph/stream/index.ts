export {
  type AssembledMessageFactory,
  type AssembledMessageFields,
  ChatModelStreamImpl,
  ReasoningContentStream,
  type StreamedToolCall,
  setAssembledMessageFactory,
  TextContentStream,
  ToolCallsStream,
  UsageMetadataStream,
} from "./chat-model-stream.js";
export { type GraphStreamPart, toGraphEventStream } from "./event-stream.js";
export {
  type CreateGraphRunStreamOptions,
  createGraphRunStream,
  GraphRunStream,
  type InferExtensions,
  SubgraphRunStream,
  type ValuesProjection,
} from "./graph-run-stream.js";
export { attachDirectSource, type DirectSource, IterableReadableStream } from "./iterable-readable-stream.js";
export {
  isNativeTransformer,
  type NativeStreamTransformer,
  type StreamEmitter,
  type StreamTransformer,
  type SubgraphDiscovery,
} from "./mux.js";
export { graphNamespace } from "./namespace.js";
export {
  type AgentStatus,
  type CheckpointEnvelope,
  type ContentBlockDelta,
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
  type ProtocolMethod,
  STREAM_EVENTS_V3_MODES,
  type ToolCallStatus,
  type ToolCallStream,
  type ToolsEventData,
  type UpdatesEventData,
  type UsageInfo,
} from "./protocol.js";
export { type ChunkConsumer, normalizeStreamModes, StreamSink } from "./sink.js";
export {
  EventLog,
  isStreamChannel,
  StreamChannel,
  type StreamChannelEventStreamOptions,
} from "./stream-channel.js";
export { type ToolsStreamEvent, ToolsStreamHandler } from "./tools-stream.js";
export {
  type ChatModelStreamHandle,
  createLifecycleTransformer,
  createMessagesTransformer,
  createSubgraphDiscoveryTransformer,
  createValuesTransformer,
  filterLifecycleEntries,
  filterSubgraphHandles,
  type LifecycleEntry,
  type LifecycleProjection,
  type LifecycleTransformerOptions,
  type MessagesTransformerProjection,
  type SubgraphDiscoveryProjection,
  type SubgraphDiscoveryTransformerOptions,
  type ValuesTransformerProjection,
} from "./transformers.js";
export { ALWAYS_PROPAGATED_MODES, STREAM_MODES, type StreamMode } from "./types.js";
