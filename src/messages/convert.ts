import { AIMessage, AIMessageChunk } from "./ai.js";
import type { BaseMessage, BaseMessageChunk } from "./base.js";
import { isBaseMessageChunk } from "./base.js";
import { ChatMessage, ChatMessageChunk } from "./chat.js";
import { MessageCoercionError } from "./errors.js";
import { FunctionMessage, FunctionMessageChunk } from "./function.js";
import { HumanMessage, HumanMessageChunk } from "./human.js";
import { SystemMessage, SystemMessageChunk } from "./system.js";
import { ToolMessage, ToolMessageChunk } from "./tool.js";

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
  const common = commonFields(message);
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
    case "generic":
      return new ChatMessage({ ...common, role: (message as ChatMessageChunk).role });
    case "function":
      // a name-less chunk throws here, as LangChain.js's chunk-to-message conversion does
      return new FunctionMessage({ ...common, name: message.name as string });
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

/**
 * The chunk form of a message (LangChain.js `convertToChunk`): an `AIMessage`'s tool calls
 * become `tool_call_chunks` with JSON arguments and no index; chunks are returned as they are.
 *
 * @example
 * ```ts
 * const chunk = convertToChunk(new AIMessage("Hi"));
 * chunk.concat(new AIMessageChunk(" there")).content; // "Hi there"
 * ```
 */
export function convertToChunk(message: BaseMessage): BaseMessageChunk {
  if (isBaseMessageChunk(message)) return message;
  const common = commonFields(message);
  switch (message.type) {
    case "ai": {
      const whole = message as AIMessage;
      return new AIMessageChunk({
        ...common,
        usage_metadata: whole.usage_metadata,
        tool_call_chunks: whole.tool_calls.map((call) => ({
          name: call.name,
          args: JSON.stringify(call.args),
          id: call.id,
          index: undefined,
          type: "tool_call_chunk" as const,
        })),
      });
    }
    case "human":
      return new HumanMessageChunk(common);
    case "system":
      return new SystemMessageChunk(common);
    case "generic":
      return new ChatMessageChunk({ ...common, role: (message as ChatMessage).role });
    case "function":
      return new FunctionMessageChunk(common);
    case "tool": {
      const tool = message as ToolMessage;
      return new ToolMessageChunk({
        ...common,
        tool_call_id: tool.tool_call_id,
        status: tool.status,
        artifact: tool.artifact,
      });
    }
    default:
      throw new MessageCoercionError(`Unknown message type. A "${message.type}" message has no chunk form.`);
  }
}

/**
 * True for a value shaped like a message: an object with a `type` and a string or array
 * `content` (LangChain.js `isMessage`); message instances and their plain JSON views both pass.
 *
 * @example
 * ```ts
 * isMessage(new HumanMessage("hi")); // true
 * isMessage({ type: "ai", content: [] }); // true
 * isMessage({ role: "user", content: "hi" }); // false
 * ```
 */
export function isMessage(value: unknown): value is { type: string; content: string | unknown[] } {
  if (typeof value !== "object" || value === null || !("type" in value) || !("content" in value))
    return false;
  const content = (value as { content: unknown }).content;
  return typeof content === "string" || Array.isArray(content);
}

/** The fields every message class shares, as the constructors of the other form take them. */
function commonFields(message: BaseMessage) {
  return {
    content: message.content,
    id: message.id,
    name: message.name,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  };
}
