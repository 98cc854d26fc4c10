import {
  type BaseMessage,
  defaultTextSplitter,
  isSystemMessage,
  type MessageContent,
} from "../../messages/index.js";

type Counter = (messages: BaseMessage[]) => number | Promise<number>;

/** A copy of a message (same class and fields) with other content. */
function withContent(message: BaseMessage, content: MessageContent): BaseMessage {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(message)) as BaseMessage, message);
  copy.content = content;
  return copy;
}

/**
 * The part of the history the summarizer is shown: the newest messages that fit in
 * `maxTokens`, message by message, as LangChain.js's summarization middleware trims it
 * (`trimMessages` with `strategy: "last"`, `allowPartial`, `includeSystem`). Unlike agentgraph's
 * `trimMessages`, an AI message and its tool results are not kept as one unit: the summarizer
 * reads a text rendering, so a tool result whose call was cut off is still worth showing, and
 * LangChain.js shows it. A leading system message stays first; the message at the cut may be
 * kept in part (the first content blocks that fit, newest first as LangChain.js orders them,
 * else the last lines of its text).
 */
export async function trimHistoryForSummary(
  messages: readonly BaseMessage[],
  maxTokens: number,
  count: Counter,
): Promise<BaseMessage[]> {
  const first = messages[0];
  const systemFirst = first !== undefined && isSystemMessage(first);
  // newest first, a leading system message kept in front
  let list: BaseMessage[] = systemFirst ? [first, ...messages.slice(1).reverse()] : [...messages].reverse();
  let kept = 0;
  for (let dropped = 0; dropped < list.length; dropped += 1) {
    if ((await count(dropped > 0 ? list.slice(0, -dropped) : list)) <= maxTokens) {
      kept = list.length - dropped;
      break;
    }
  }
  const cut = list[kept];
  if (cut !== undefined) {
    let partialKept = false;
    const content = cut.content;
    if (Array.isArray(content)) {
      // LangChain.js tries growing runs of blocks, each one that fits added as a message of its own
      const reversed = [...content].reverse();
      for (let size = 1; size <= reversed.length; size += 1) {
        const candidate = [...list.slice(0, kept), withContent(cut, reversed.slice(-size))];
        if ((await count(candidate)) > maxTokens) break;
        list = candidate;
        kept += 1;
        partialKept = true;
      }
    }
    if (!partialKept) {
      let text: string | undefined;
      if (typeof content === "string") text = content;
      else if (Array.isArray(content)) {
        const block = content.find((b) => b.type === "text" && typeof b.text === "string" && b.text !== "");
        text = block?.text as string | undefined;
      }
      if (text) {
        const pieces = (await defaultTextSplitter(text)).reverse();
        const total = pieces.length;
        for (let n = 0; n < total - 1; n += 1) {
          pieces.pop();
          const candidate = withContent(cut, pieces.join(""));
          if ((await count([...list.slice(0, kept), candidate])) <= maxTokens) {
            list = [...list.slice(0, kept), withContent(cut, [...pieces].reverse().join(""))];
            kept += 1;
            break;
          }
        }
      }
    }
  }
  const result = list.slice(0, kept);
  if (!systemFirst) return result.reverse();
  const [system, ...rest] = result;
  return system === undefined ? [] : [system, ...rest.reverse()];
}
