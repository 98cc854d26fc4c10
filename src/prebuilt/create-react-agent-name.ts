import { AIMessage, type BaseMessage, type ContentBlock, isAIMessage } from "../messages/index.js";
import { tagged, untaggedBlocks, untaggedText } from "../shared/index.js";

/**
 * `includeAgentName: "inline"`: for models that ignore the `name` field, the agent's earlier
 * answers are shown to the model as `<name>agent</name><content>…</content>`, and the tags are
 * taken off the model's reply again (the name goes back to `name`).
 */

function copyWith(message: AIMessage, content: AIMessage["content"], name: string | undefined): AIMessage {
  return new AIMessage({
    content,
    id: message.id,
    name,
    tool_calls: message.tool_calls,
    invalid_tool_calls: message.invalid_tool_calls,
    usage_metadata: message.usage_metadata,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  });
}

/** Moves a named AI message's name into its content (other messages are returned as they are). */
export function addInlineAgentName(message: BaseMessage): BaseMessage {
  if (!isAIMessage(message) || !message.name) return message;
  const name = message.name;
  if (typeof message.content === "string") return copyWith(message, tagged(name, message.content), undefined);
  let texts = 0;
  const content: ContentBlock[] = message.content.map((block) => {
    // a bare string in a content list (LangChain.js's legacy form) is text too, and stays a string
    const part: unknown = block;
    if (typeof part === "string") {
      texts += 1;
      return tagged(name, part) as unknown as ContentBlock;
    }
    if (block.type !== "text" || typeof block.text !== "string") return block;
    texts += 1;
    return { ...block, text: tagged(name, block.text) };
  });
  if (texts === 0) content.unshift({ type: "text", text: tagged(name, "") });
  return copyWith(message, content, undefined);
}

/** Takes the `<name>`/`<content>` tags off a model reply and puts the name back in `name`. */
export function removeInlineAgentName(message: BaseMessage): BaseMessage {
  if (!isAIMessage(message) || !message.content) return message;
  if (typeof message.content === "string") {
    const untagged = untaggedText(message.content);
    if (untagged === undefined) return message;
    return copyWith(message, untagged.content, untagged.name);
  }
  const { blocks, name } = untaggedBlocks(message.content);
  return copyWith(message, blocks as ContentBlock[], name);
}
