import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  isAIMessage,
  isHumanMessage,
  isSystemMessage,
  isToolMessage,
  type MessageContent,
  SystemMessage,
  type ToolCall,
  ToolMessage,
} from "../../messages/index.js";

/**
 * A copy of an AI message with other tool calls and/or content, under the same id (so the
 * messages reducer replaces the original). The state's message object is never mutated: it
 * may be shared with checkpoints and earlier results.
 */
export function copyAIMessage(
  message: AIMessage,
  changes: { tool_calls?: ToolCall[]; content?: MessageContent; response_metadata?: Record<string, unknown> },
): AIMessage {
  return new AIMessage({
    content: changes.content ?? message.content,
    id: message.id,
    name: message.name,
    tool_calls: changes.tool_calls ?? message.tool_calls,
    invalid_tool_calls: message.invalid_tool_calls,
    usage_metadata: message.usage_metadata,
    additional_kwargs: { ...message.additional_kwargs },
    response_metadata: changes.response_metadata ?? { ...message.response_metadata },
  });
}

/** The text of a message content: a string as is, text blocks joined. */
export function contentText(content: MessageContent): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const block of content as readonly unknown[]) {
    if (typeof block === "string") text += block;
    else {
      const part = block as { type?: unknown; text?: unknown };
      if (part.type === "text" && typeof part.text === "string") text += part.text;
    }
  }
  return text;
}

/**
 * A copy of a human, system, tool or AI message with other content, under the same id and
 * with the same other fields (so the messages reducer replaces the original in state). Other
 * message types are returned as they are.
 */
export function copyWithContent(message: BaseMessage, content: MessageContent): BaseMessage {
  const common = {
    content,
    id: message.id,
    name: message.name,
    additional_kwargs: { ...message.additional_kwargs },
    response_metadata: { ...message.response_metadata },
  };
  if (isAIMessage(message)) return copyAIMessage(message, { content });
  if (isHumanMessage(message)) return new HumanMessage(common);
  if (isSystemMessage(message)) return new SystemMessage(common);
  if (isToolMessage(message)) {
    return new ToolMessage({
      ...common,
      tool_call_id: message.tool_call_id,
      status: message.status,
      artifact: message.artifact,
    });
  }
  return message;
}
