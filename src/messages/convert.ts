import type { AIMessageChunk } from "./ai.js";
import { AIMessage } from "./ai.js";
import type { BaseMessage } from "./base.js";
import { isBaseMessageChunk } from "./base.js";
import { HumanMessage } from "./human.js";
import { SystemMessage } from "./system.js";
import type { ToolMessageChunk } from "./tool.js";
import { ToolMessage } from "./tool.js";

/**
 * The whole message a chunk stands for: an `AIMessageChunk` becomes an `AIMessage` with its
 * (collapsed) tool calls and no fragments, and likewise for the other kinds. Non-chunks are
 * returned as they are. The messages reducer stores chunks this way.
 *
 * @example
 * ```ts
 * const whole = chunkToMessage(new AIMessageChunk({ content: "Hi", id: "run-1" }));
 * whole instanceof AIMessageChunk; // false
 * ```
 */
export function chunkToMessage(message: BaseMessage): BaseMessage {
  if (!isBaseMessageChunk(message)) return message;
  const common = {
    content: message.content,
    id: message.id,
    name: message.name,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  };
  switch (message.type) {
    case "ai": {
      const chunk = message as AIMessageChunk;
      return new AIMessage({
        ...common,
        tool_calls: chunk.tool_calls,
        invalid_tool_calls: chunk.invalid_tool_calls,
        usage_metadata: chunk.usage_metadata,
      });
    }
    case "human":
      return new HumanMessage(common);
    case "system":
      return new SystemMessage(common);
    case "tool": {
      const chunk = message as ToolMessageChunk;
      return new ToolMessage({
        ...common,
        tool_call_id: chunk.tool_call_id,
        status: chunk.status,
        artifact: chunk.artifact,
      });
    }
    default:
      return message;
  }
}
