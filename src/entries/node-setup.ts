/**
 * What every Node entry point of the package sets up before its exports are used: the engine's
 * async-context provider (`AsyncLocalStorage`, which `getConfig()`, `interrupt()` and nested
 * graphs rely on inside nodes), the message classes' checkpoint serialization (so messages
 * saved by any saver come back as messages), the chunk a token streams as when a model reports
 * it without one, and the `AIMessage` a v3 run's `ChatModelStream.output` resolves to. The engine
 * itself imports nothing from Node and
 * nothing from `messages/`: the entry points compose them. Running it twice changes nothing.
 *
 * @example
 * ```ts
 * import "./node-setup.js"; // first line of an entry point
 * ```
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { setAssembledMessageFactory, setTokenChunkFactory } from "../graph/index.js";
import { AIMessage, AIMessageChunk, type BaseMessage } from "../messages/index.js";
import { hasAsyncContextStorage, installAsyncContextStorage } from "../shared/index.js";
import { registerMessageSerialization } from "./messages-serialization.js";

declare module "../graph/builder/compiled-state-graph.js" {
  /**
   * Messages streamed by `streamMode: "messages"` are `BaseMessage`s, as in LangGraph.js: the
   * engine names no message class, the entry points (this set-up, the root entry) do.
   */
  interface StreamMessageTypes {
    message: BaseMessage;
  }
}

declare module "../graph/stream/chat-model-stream.js" {
  /** A v3 stream's assembled message (`await stream.output`) is an `AIMessage`, as in LangChain.js. */
  interface AssembledMessageTypes {
    message: AIMessage;
  }
}

if (!hasAsyncContextStorage()) installAsyncContextStorage(new AsyncLocalStorage());
registerMessageSerialization();
// a token a model reports without its chunk streams (`messages` mode, `streamEvents`) as a chunk of its own
setTokenChunkFactory(
  (token, id) => new AIMessageChunk({ content: token, ...(id !== undefined ? { id } : {}) }),
);
// `ChatModelStream.output` (a message of a v3 run's `run.messages`) is an `AIMessage`, as in
// LangChain.js, whichever entry point the program imported
setAssembledMessageFactory(
  (fields) =>
    new AIMessage({
      ...(fields.id !== undefined ? { id: fields.id } : {}),
      content: fields.content,
      ...(fields.usage_metadata !== undefined
        ? {
            usage_metadata: {
              ...fields.usage_metadata,
              input_tokens: fields.usage_metadata.input_tokens ?? 0,
              output_tokens: fields.usage_metadata.output_tokens ?? 0,
              total_tokens: fields.usage_metadata.total_tokens ?? 0,
            },
          }
        : {}),
      response_metadata: fields.response_metadata,
    }),
);

/** Whether the Node set-up ran (it runs when this module is first imported). */
export const nodeSetUp = true;
