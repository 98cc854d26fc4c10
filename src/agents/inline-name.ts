import { AIMessage, type BaseMessage, isAIMessage, type MessageContent } from "../messages/index.js";

const NAME = /<name>(.*?)<\/name>/s;
const CONTENT = /<content>(.*?)<\/content>/s;

/**
 * `includeAgentName: "inline"`: the model sees each named AI message's name inside its content
 * (`<name>x</name><content>…</content>`), for providers that ignore `name`.
 */
export function inlineAgentNames(messages: readonly BaseMessage[]): BaseMessage[] {
  return messages.map((message) => {
    if (!isAIMessage(message) || message.name === undefined || message.name === "") return message;
    const wrap = (text: string) => `<name>${message.name}</name><content>${text}</content>`;
    let content: MessageContent;
    if (typeof message.content === "string") {
      content = wrap(message.content);
    } else {
      let texts = 0;
      const blocks = message.content.map((block) => {
        if (block.type !== "text" || typeof (block as { text?: unknown }).text !== "string") return block;
        texts += 1;
        return { ...block, text: wrap((block as unknown as { text: string }).text) };
      });
      if (texts === 0) blocks.unshift({ type: "text", text: wrap("") });
      content = blocks as MessageContent;
    }
    return new AIMessage({
      content,
      id: message.id,
      tool_calls: message.tool_calls,
      invalid_tool_calls: message.invalid_tool_calls,
      additional_kwargs: message.additional_kwargs,
      response_metadata: message.response_metadata,
    });
  });
}

/** Undoes {@link inlineAgentNames} on the model's answer, when the model echoed the markup. */
export function stripInlineAgentName(message: AIMessage): AIMessage {
  if (typeof message.content !== "string") return message;
  const name = message.content.match(NAME);
  const content = message.content.match(CONTENT);
  if (name === null || content === null) return message;
  message.content = content[1] ?? "";
  return message;
}
