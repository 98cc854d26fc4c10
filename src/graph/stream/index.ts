export { attachDirectSource, type DirectSource, IterableReadableStream } from "./iterable-readable-stream.js";
export { graphNamespace } from "./namespace.js";
export { type ChunkConsumer, normalizeStreamModes, StreamSink } from "./sink.js";
export { type ToolsStreamEvent, ToolsStreamHandler } from "./tools-stream.js";
export { ALWAYS_PROPAGATED_MODES, STREAM_MODES, type StreamMode } from "./types.js";
