import {
  type AIMessage,
  AIMessageChunk,
  type AIMessageChunkFields,
  type BaseMessage,
  type BaseMessageLike,
  chunkToMessage,
  coerceMessageLikeToMessage,
  isAIMessage,
  isBaseMessage,
  isBaseMessageChunk,
  type ToolCallChunk,
} from "../../messages/index.js";
import { InvalidArgumentError, takeHandedOver } from "../../shared/index.js";
import type { BaseLanguageModelInput } from "./types.js";

/**
 * Turns a model input into messages: a string becomes one human message, message-likes are
 * coerced, prompt values are expanded.
 *
 * @example
 * ```ts
 * toMessages("Hi"); // [HumanMessage("Hi")]
 * ```
 */
export function toMessages(input: BaseLanguageModelInput): BaseMessage[] {
  if (typeof input === "string") return [coerceMessageLikeToMessage(input)];
  if (Array.isArray(input)) {
    // a copy (the model may change its list), coercing only what is not a message yet: a long
    // conversation is copied natively rather than element by element; a list its caller handed
    // over (built for this call) is kept
    const handed = takeHandedOver(input);
    // a conversation the messages reducer built holds messages only
    if (handed === "checked") return input as BaseMessage[];
    const messages: BaseMessageLike[] = handed === "list" ? input : input.slice();
    for (let i = 0; i < messages.length; i += 1) {
      const item = messages[i] as BaseMessageLike;
      if (!isBaseMessage(item)) messages[i] = coerceMessageLikeToMessage(item);
    }
    return messages as BaseMessage[];
  }
  if (typeof input === "object" && input !== null && typeof input.toChatMessages === "function") {
    return input.toChatMessages();
  }
  throw new InvalidArgumentError(
    `A chat model takes a string, a list of messages or a prompt value, got ${typeof input}. ` +
      'Pass e.g. "Hello" or [new HumanMessage("Hello")].',
  );
}

/** The message callbacks heard as a call's answer (`handleLLMEnd`) when it is not the one `invoke` returned. */
const heardAnswers = new WeakMap<AIMessage, BaseMessage>();

/**
 * Notes that callbacks heard `heard` (the joined chunks of a streamed call, or the chunk a
 * `_generate` returned) as the call whose answer is `answer`, for {@link nameAnswer}.
 */
export function rememberHeardAnswer(answer: AIMessage, heard: BaseMessage): void {
  if (heard !== answer) heardAnswers.set(answer, heard);
}

/**
 * Names a model's answer, as an agent names it (`"model"`, or the agent's name). In LangChain.js
 * `invoke` returns the very message callbacks heard as the answer (a streamed call's joined
 * `AIMessageChunk`), so a `messages`-mode stream shows the name on that chunk too, when it was
 * streamed whole (no `handleLLMNewToken`); here `invoke` answers an `AIMessage` made from the
 * chunk, so the chunk is named alongside.
 *
 * @example
 * ```ts
 * const answer = await model.invoke(messages);
 * nameAnswer(answer, "model"); // answer.name === "model", and so the chunk a messages stream showed
 * ```
 */
export function nameAnswer(answer: BaseMessage, name: string | undefined): void {
  answer.name = name;
  const heard = heardAnswers.get(answer as AIMessage);
  if (heard !== undefined) heard.name = name;
}

/**
 * The whole `AIMessage` for what a model produced: chunks are collapsed, other AI messages
 * are returned as they are.
 *
 * @example
 * ```ts
 * toAIMessage(new AIMessageChunk("Hi")); // AIMessage("Hi")
 * ```
 */
export function toAIMessage(message: BaseMessage): AIMessage {
  if (isBaseMessageChunk(message)) return chunkToMessage(message) as AIMessage;
  if (isAIMessage(message)) return message;
  throw new InvalidArgumentError(
    `A chat model must produce an AIMessage, but _generate returned a "${message.getType()}" message. ` +
      "Return { generations: [{ message: new AIMessage(…), text }] }.",
  );
}

/**
 * The single chunk that stands for a whole message (what `stream()` yields when the model
 * cannot stream): tool calls become `tool_call_chunks` so the chunk behaves like a streamed one.
 *
 * @example
 * ```ts
 * messageToChunk(new AIMessage({ content: "", tool_calls: [call] })).tool_call_chunks.length; // 1
 * ```
 */
export function messageToChunk(message: AIMessage): AIMessageChunk {
  if (isBaseMessageChunk(message)) return message as unknown as AIMessageChunk;
  const fragments: ToolCallChunk[] = [
    ...message.tool_calls.map(
      (call, index): ToolCallChunk => ({
        name: call.name,
        args: JSON.stringify(call.args),
        id: call.id,
        index,
        type: "tool_call_chunk",
      }),
    ),
    ...message.invalid_tool_calls.map(
      (call, i): ToolCallChunk => ({
        name: call.name,
        args: call.args,
        id: call.id,
        index: message.tool_calls.length + i,
        type: "tool_call_chunk",
      }),
    ),
  ];
  return new AIMessageChunk({
    content: message.content,
    id: message.id,
    name: message.name,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
    usage_metadata: message.usage_metadata,
    tool_call_chunks: fragments,
  });
}

/**
 * The message with standard (v1) content: its `contentBlocks` as content and
 * `response_metadata.output_version: "v1"` (what a model with `outputVersion: "v1"` answers,
 * as LangChain.js's `castStandardMessageContent`). A new message of the same class.
 *
 * @example
 * ```ts
 * toStandardContent(new AIMessage("hi")).content; // [{ type: "text", text: "hi" }]
 * ```
 */
export function toStandardContent<T extends AIMessage>(message: T): T {
  const Message = message.constructor as new (fields: AIMessageChunkFields) => T;
  // every own field (tool calls, usage, chunks…) carries over; only content and metadata change
  const fields: AIMessageChunkFields = {
    ...(message as AIMessageChunkFields),
    content: message.contentBlocks,
    response_metadata: { ...message.response_metadata, output_version: "v1" },
  };
  return new Message(fields);
}
