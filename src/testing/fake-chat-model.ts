import { AIMessage, AIMessageChunk, type BaseMessage, type ToolCallChunk } from "../messages/index.js";
import {
  BaseChatModel,
  type BaseChatModelParams,
  ChatGenerationChunk,
  type ChatModelRun,
  type ChatResult,
} from "../models/index.js";
import { AgentGraphError } from "../shared/index.js";

/**
 * A {@link FakeChatModel} was called more times than it has responses.
 *
 * @example
 * ```ts
 * await expect(model.invoke("one more")).rejects.toThrow(FakeChatModelExhaustedError);
 * ```
 */
export class FakeChatModelExhaustedError extends AgentGraphError {
  static override readonly brandName: string = "FakeChatModelExhaustedError";
}

/**
 * Options of {@link FakeChatModel}.
 *
 * @example
 * ```ts
 * const fields: FakeChatModelFields = { responses: ["Hello!"] };
 * ```
 */
export interface FakeChatModelFields extends BaseChatModelParams {
  /**
   * The answers, in order; a string means `new AIMessage(string)`. Left out, the model echoes its
   * input as LangChain.js's `FakeChatModel` does (see {@link FakeChatModel}).
   */
  responses?: Array<AIMessage | string>;
}

/**
 * A scripted chat model for tests. It answers with `responses` in order (a string means
 * `new AIMessage(string)`) and records in `calls[i]` the exact messages call `i` received,
 * system message included. Running out of responses throws
 * {@link FakeChatModelExhaustedError}.
 *
 * It is a full `BaseChatModel`: `bindTools(tools)` returns a bound model that records into
 * the same `calls` (the tools are on the binding's `boundTools` and `kwargs.tools`; the fake
 * itself has no `tools` property); `stream` yields several chunks per answer (text split in
 * pieces, tool calls as `tool_call_chunks`) that concatenate to the answer under one id;
 * `withStructuredOutput(schema, { name })` makes one recorded call and returns the `args` of
 * the scripted answer's tool call named `name` (default `"extract"`); callbacks see it like
 * any model, so it drives the graph's `messages` stream mode.
 *
 * Without `responses` it is LangChain.js's `FakeChatModel` (`@langchain/core/utils/testing`):
 * each answer is the text of the messages it received, one per line (content that is not a
 * string as indented JSON), or the first `stop` sequence when the call has one; it never runs out.
 *
 * @example
 * ```ts
 * const model = new FakeChatModel({
 *   responses: [
 *     new AIMessage({ content: "", tool_calls: [{ name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" }] }),
 *     "It's sunny in Suzhou.",
 *   ],
 * });
 * const agent = createAgent({ model, tools: [getWeather] });
 * await agent.invoke({ messages: [new HumanMessage("Weather in Suzhou?")] });
 * model.calls.length; // 2
 * ```
 */
export class FakeChatModel extends BaseChatModel {
  /** The scripted answers (`undefined`: the model echoes its input). */
  readonly responses: AIMessage[] | undefined;
  /** The messages each call received, in call order. */
  readonly calls: BaseMessage[][] = [];
  private nextIndex = 0;

  constructor(fields: FakeChatModelFields = {}) {
    super(fields);
    this.responses = fields.responses?.map((response) =>
      typeof response === "string" ? new AIMessage(response) : response,
    );
  }

  _llmType(): string {
    return "fake";
  }

  async _generate(
    messages: BaseMessage[],
    options?: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): Promise<ChatResult> {
    const message = this.take(messages, options);
    // the echo reports its text as one token, as LangChain.js's fake does
    if (this.responses === undefined) await runManager?.handleLLMNewToken(message.text);
    return { generations: [{ text: message.text, message }] };
  }

  /** The base class reports each streamed chunk to `handleLLMNewToken`. */
  protected override reportsStreamedChunks(): boolean {
    return true;
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options?: this["ParsedCallOptions"],
  ): AsyncGenerator<ChatGenerationChunk> {
    const message = this.take(messages, options);
    if (this.responses === undefined) {
      // the echo is one piece, as LangChain.js's fake (which does not stream) answers it
      yield new ChatGenerationChunk({ text: message.text, message: new AIMessageChunk(message.text) });
      return;
    }
    for (const chunk of splitIntoChunks(message)) {
      yield new ChatGenerationChunk({ text: chunk.text, message: chunk });
    }
  }

  /** Records the call and returns a copy of the next response (so ids given later stay per call). */
  private take(messages: BaseMessage[], options: { stop?: string[] } | undefined): AIMessage {
    const index = this.nextIndex;
    this.calls.push([...messages]);
    if (this.responses === undefined) return echoOf(messages, options?.stop);
    const response = this.responses[index];
    if (response === undefined) {
      throw new FakeChatModelExhaustedError(
        `FakeChatModel has no response for call ${index + 1}: it was given ${this.responses.length} response(s). ` +
          "Add more entries to new FakeChatModel({ responses: [...] }).",
      );
    }
    this.nextIndex += 1;
    return new AIMessage({
      content: response.content,
      id: response.id,
      name: response.name,
      tool_calls: response.tool_calls,
      invalid_tool_calls: response.invalid_tool_calls,
      usage_metadata: response.usage_metadata,
      additional_kwargs: { ...response.additional_kwargs },
      response_metadata: { ...response.response_metadata },
    });
  }
}

/** LangChain.js's `FakeChatModel` answer: the first stop sequence, else the messages' text, one per line. */
function echoOf(messages: readonly BaseMessage[], stop: readonly string[] | undefined): AIMessage {
  const first = stop?.[0];
  if (first !== undefined) return new AIMessage(first);
  const lines = messages.map((message) =>
    typeof message.content === "string" ? message.content : JSON.stringify(message.content, null, 2),
  );
  return new AIMessage(lines.join("\n"));
}

/**
 * Splits a message into the chunks a streaming provider would send: the text in word-sized
 * pieces, each tool call as a name chunk and argument pieces, and usage and metadata (when the
 * message has any) on a closing chunk. Concatenated, the chunks give back the message.
 */
function splitIntoChunks(message: AIMessage): AIMessageChunk[] {
  const chunks: AIMessageChunk[] = [];
  const id = message.id;
  const name = message.name;
  if (typeof message.content === "string") {
    for (const piece of message.content.match(/\s*\S+|\s+/g) ?? [])
      chunks.push(new AIMessageChunk({ content: piece, id, name }));
  } else if (message.content.length > 0) {
    chunks.push(new AIMessageChunk({ content: message.content, id, name }));
  }
  const calls: ToolCallChunk[][] = [];
  message.tool_calls.forEach((call, index) => {
    const args = JSON.stringify(call.args);
    const half = Math.ceil(args.length / 2);
    calls.push(
      [{ name: call.name, args: args.slice(0, half), id: call.id, index, type: "tool_call_chunk" }],
      [{ args: args.slice(half), index, type: "tool_call_chunk" }],
    );
  });
  message.invalid_tool_calls.forEach((call, i) => {
    const index = message.tool_calls.length + i;
    calls.push([{ name: call.name, args: call.args, id: call.id, index, type: "tool_call_chunk" }]);
  });
  for (const fragments of calls)
    chunks.push(new AIMessageChunk({ content: "", id, name, tool_call_chunks: fragments }));
  // a closing chunk only for what the message carries besides content and tool calls (or
  // for an empty message, which streams as one empty chunk)
  const carries =
    Object.keys(message.additional_kwargs).length > 0 ||
    Object.keys(message.response_metadata).length > 0 ||
    message.usage_metadata !== undefined;
  if (!carries && chunks.length > 0) return chunks;
  chunks.push(
    new AIMessageChunk({
      content: "",
      id,
      name,
      additional_kwargs: message.additional_kwargs,
      response_metadata: message.response_metadata,
      usage_metadata: message.usage_metadata,
    }),
  );
  return chunks;
}
