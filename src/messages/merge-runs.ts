import { AIMessage } from "./ai.js";
import type { BaseMessage, BaseMessageFields } from "./base.js";
import { ChatMessage } from "./chat.js";
import type { BaseMessageLike } from "./coerce.js";
import { coerceMessageLikeToMessage } from "./coerce.js";
import { FunctionMessage } from "./function.js";
import { HumanMessage } from "./human.js";
import { mergeContent, mergeDicts } from "./merge.js";
import { SystemMessage } from "./system.js";
import type { ToolCall } from "./tool-calls.js";
import type { MessagesTransformer } from "./trim.js";
import { messagesTransformer } from "./trim.js";
import { mergeUsageMetadata } from "./usage.js";

function markToolCall(call: ToolCall): ToolCall {
  return call.type === "tool_call" ? call : { ...call, type: "tool_call" };
}

/** Joins two consecutive messages of the same kind (not tool or remove messages). */
function joinPair(left: BaseMessage, right: BaseMessage): BaseMessage {
  const fields: BaseMessageFields = {
    content:
      typeof left.content === "string" && typeof right.content === "string"
        ? `${left.content}\n${right.content}`
        : mergeContent(left.content, right.content),
    additional_kwargs: mergeDicts(left.additional_kwargs, right.additional_kwargs) ?? {},
    response_metadata: mergeDicts(left.response_metadata, right.response_metadata) ?? {},
    id: left.id ?? right.id,
    // no name: a merged message has no single author (LangChain.js drops it too); a function
    // message's name is its function's (below)
  };
  if (left.type === "human") return new HumanMessage(fields);
  if (left.type === "system") return new SystemMessage(fields);
  if (left.type === "generic") return new ChatMessage({ ...fields, role: (left as ChatMessage).role });
  // the first function's name, as LangChain.js keeps it (a name-less chunk pair throws, as there)
  if (left.type === "function") return new FunctionMessage({ ...fields, name: left.name as string });
  const a = left as AIMessage;
  const b = right as AIMessage;
  return new AIMessage({
    ...fields,
    // LangChain.js rebuilds the calls from chunks, which marks each one `type: "tool_call"`
    tool_calls: [...a.tool_calls, ...b.tool_calls].map(markToolCall),
    invalid_tool_calls: [...a.invalid_tool_calls, ...b.invalid_tool_calls],
    usage_metadata:
      a.usage_metadata === undefined && b.usage_metadata === undefined
        ? undefined
        : mergeUsageMetadata(a.usage_metadata, b.usage_metadata),
  });
}

const MERGEABLE = new Set(["human", "ai", "system", "generic", "function"]);

/** Same kind, one that merges, and for chat messages the same role (a merge would lose the second). */
function joinable(left: BaseMessage, right: BaseMessage): boolean {
  if (left.type !== right.type || !MERGEABLE.has(right.type)) return false;
  return right.type !== "generic" || (left as ChatMessage).role === (right as ChatMessage).role;
}

function mergeRuns(messages: BaseMessage[]): BaseMessage[] {
  const merged: BaseMessage[] = [];
  for (const message of messages) {
    const last = merged[merged.length - 1];
    if (last !== undefined && joinable(last, message)) {
      merged[merged.length - 1] = joinPair(last, message);
    } else {
      merged.push(message);
    }
  }
  return merged;
}

/**
 * Merges runs of consecutive messages of the same kind into one message each (some
 * providers reject two user messages in a row). String contents are joined with a newline;
 * block contents are concatenated; AI tool calls are combined; a merged message has no `name`,
 * except a function message, which keeps the first one (as in LangChain.js). Chat messages (`ChatMessage`) merge only when their roles are the same. Tool and remove
 * messages are never merged. Called without messages it returns a reusable transformer.
 *
 * @example
 * ```ts
 * mergeMessageRuns([new HumanMessage("Hi"), new HumanMessage("Are you there?")]);
 * // [HumanMessage("Hi\nAre you there?")]
 * ```
 */
export function mergeMessageRuns(messages: readonly BaseMessageLike[]): BaseMessage[];
export function mergeMessageRuns(): MessagesTransformer<BaseMessage[]>;
export function mergeMessageRuns(
  messages?: readonly BaseMessageLike[],
): BaseMessage[] | MessagesTransformer<BaseMessage[]> {
  if (messages !== undefined) return mergeRuns(messages.map(coerceMessageLikeToMessage));
  return messagesTransformer(mergeRuns);
}
