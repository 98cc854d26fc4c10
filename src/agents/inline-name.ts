import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  isAIMessage,
  type MessageContent,
} from "../messages/index.js";
import { tagged, untaggedBlocks, untaggedText } from "../shared/index.js";

/**
 * `includeAgentName: "inline"`: the model sees each named AI message's name inside its content
 * (`<name>x</name><content>…</content>`), for providers that ignore `name`.
 */
export function inlineAgentNames(messages: readonly BaseMessage[]): BaseMessage[] {
  return messages.map((message) => {
    // a chunk (a streamed answer kept in the state) goes as it is, as LangChain.js leaves it
    if (
      !isAIMessage(message) ||
      AIMessageChunk.isInstance(message) ||
      message.name === undefined ||
      message.name === ""
    )
      return message;
    const name = message.name;
    const wrap = (text: string) => tagged(name, text);
    let content: MessageContent;
    if (typeof message.content === "string") {
      content = wrap(message.content);
    } else {
      let texts = 0;
      const blocks = message.content.map((block) => {
        // a bare string in the list is text too
        if (typeof block === "string") {
          texts += 1;
          return wrap(block);
        }
        if (block.type !== "text") return block;
        texts += 1;
        return { ...block, text: wrap(String((block as { text?: unknown }).text)) };
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

/**
 * Undoes {@link inlineAgentNames} on the model's answer, when the model echoed the markup, as
 * LangChain.js's `withAgentName` does: a text (or text block) holding both tags becomes what is
 * inside `<content>`, a text block whose `<content>` is missing or empty is dropped, and the
 * answer takes the name the markup gives (a list of blocks without markup: no name).
 */
export function stripInlineAgentName(message: AIMessage): AIMessage {
  const content = message.content;
  if (typeof content === "string") {
    if (content === "") return message;
    const untagged = untaggedText(content);
    if (untagged === undefined) return message;
    message.content = untagged.content;
    message.name = untagged.name;
    return message;
  }
  const { blocks, name } = untaggedBlocks(content);
  message.content = blocks as MessageContent;
  message.name = name;
  return message;
}
