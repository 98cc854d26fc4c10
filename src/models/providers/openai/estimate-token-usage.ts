import type { BaseMessage } from "../../../messages/index.js";

/**
 * The `estimatedTokenUsage` `@langchain/openai` reports for a call it streamed inside `invoke`
 * (`streaming: true`), counted as `@langchain/core` counts tokens when it has no tiktoken
 * encoding: a text is `ceil(length / 4)` tokens. (LangChain.js downloads an encoding for this
 * when it can; agentgraph never goes to the network for an estimate. See docs/differences.md.)
 *
 * @example
 * ```ts
 * estimateTokenUsage("gpt-4.1-mini", [new HumanMessage("?")], [answer]);
 * // { promptTokens: 8, completionTokens: 3, totalTokens: 11 } for an 11-character answer
 * ```
 */
export function estimateTokenUsage(
  model: string,
  prompt: readonly BaseMessage[],
  answers: readonly BaseMessage[],
): { promptTokens: number; completionTokens: number; totalTokens: number } {
  let promptTokens = 3;
  for (const message of prompt) promptTokens += messageTokens(model, message);
  let completionTokens = 0;
  for (const answer of answers) {
    completionTokens +=
      answer.additional_kwargs?.function_call === undefined
        ? approximateTokens(answer.content)
        : messageTokens(model, answer);
  }
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** One message's count: its text, role and name, and the overheads OpenAI's cookbook gives. */
function messageTokens(model: string, message: BaseMessage): number {
  const legacy = model === "gpt-3.5-turbo-0301";
  const type = message.getType();
  let count = approximateTokens(message.content) + (legacy ? 4 : 3) + approximateTokens(roleOf(message));
  if (message.name !== undefined) count += (legacy ? -1 : 1) + approximateTokens(message.name);
  if (type === "function") count -= 2;
  const call = message.additional_kwargs?.function_call as
    | { name?: unknown; arguments?: unknown }
    | undefined;
  if (call !== undefined) {
    count += 3;
    if (typeof call.name === "string" && call.name !== "") count += approximateTokens(call.name);
    if (typeof call.arguments === "string" && call.arguments !== "") {
      let args = call.arguments;
      try {
        args = JSON.stringify(JSON.parse(args));
      } catch {
        // counted as it came
      }
      count += approximateTokens(args);
    }
  }
  return count;
}

/**
 * A message's OpenAI role, as `@langchain/openai`'s `messageToOpenAIRole` names it (`user`,
 * `assistant`, a chat message's own role, else its type); also what `getNumTokensFromMessages`
 * counts.
 */
export function roleOf(message: BaseMessage): string {
  switch (message.getType()) {
    case "human":
      return "user";
    case "ai":
      return "assistant";
    default: {
      const role = (message as { role?: unknown }).role;
      return typeof role === "string" ? role : message.getType();
    }
  }
}

/** `@langchain/core`'s count of a text (or of the text blocks of content) without an encoding. */
function approximateTokens(content: unknown): number {
  let text = "";
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    for (const item of content) {
      if (typeof item === "string") text += item;
      else if ((item as { type?: unknown }).type === "text") {
        const value = (item as { text?: unknown }).text;
        if (typeof value === "string") text += value;
      }
    }
  }
  return Math.ceil(text.length / 4);
}
