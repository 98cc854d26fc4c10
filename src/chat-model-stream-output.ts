/**
 * Makes `ChatModelStream.output` (a message of a v3 run's `run.messages`) an `AIMessage`, as in
 * LangChain.js: the engine builds streams without importing the message classes, so the entry
 * point composes the two.
 */
import { setAssembledMessageFactory } from "./graph/index.js";
import { AIMessage } from "./messages/index.js";

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
