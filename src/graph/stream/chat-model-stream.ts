/**
 * `ChatModelStreamImpl`: one message of a v3 run's `messages` channel, from `message-start` to
 * `message-finish`, with projections for its text, reasoning, tool calls, usage and the
 * assembled message (LangChain.js `ChatModelStream` of `@langchain/core/language_models/stream`,
 * which LangGraph.js exports as `ChatModelStreamImpl`).
 */
import { completeProtocolUsage, StreamMessageAssembly } from "../../shared/index.js";
import type { ContentBlockDelta, MessagesEventData, ProtocolContentBlock, UsageInfo } from "./protocol.js";

/** A tool call, as a finished `tool_call` content block. */
export interface StreamedToolCall {
  type: "tool_call";
  id?: string;
  name: string;
  args: Record<string, unknown>;
  [key: string]: unknown;
}

/** Fields of the message a {@link ChatModelStreamImpl} assembles. */
export interface AssembledMessageFields {
  id: string | undefined;
  content: ProtocolContentBlock[];
  usage_metadata: UsageInfo | undefined;
  response_metadata: Record<string, unknown>;
}

/** Builds the message `ChatModelStreamImpl.output` resolves to (every Node entry installs `AIMessage`). */
export type AssembledMessageFactory = (fields: AssembledMessageFields) => unknown;

/**
 * Registry through which an entry point names the class of an assembled message: the root entry
 * and the Node set-up augment it with `{ message: AIMessage }` (declaration merging), so
 * `(await stream.output).content` is typed as LangChain.js types it. Without the augmentation the
 * message is {@link AssembledMessageLike}.
 */
// biome-ignore lint/suspicious/noEmptyInterface: augmented by the entry points (declaration merging).
export interface AssembledMessageTypes {}

/** What an assembled message holds when no entry point named its class. */
export type AssembledMessageLike = AssembledMessageFields & { readonly type: "ai" };

/** The message `ChatModelStreamImpl.output` (and awaiting the stream) resolves to. */
export type AssembledMessage = AssembledMessageTypes extends { message: infer M } ? M : AssembledMessageLike;

let messageFactory: AssembledMessageFactory = (fields) => ({ type: "ai", ...fields });

/** @internal Sets how {@link ChatModelStreamImpl} builds its assembled message. */
export function setAssembledMessageFactory(factory: AssembledMessageFactory): void {
  messageFactory = factory;
}

/** The events of one message, buffered so that every projection replays them from the start. */
class EventBuffer {
  readonly events: MessagesEventData[] = [];
  finished = false;
  failure: { error: Error } | undefined;
  private waiters: (() => void)[] = [];

  push(event: MessagesEventData): void {
    this.events.push(event);
    this.wake();
  }

  finish(error?: Error): void {
    if (error !== undefined) this.failure = { error };
    this.finished = true;
    this.wake();
  }

  async *iterate(): AsyncGenerator<MessagesEventData> {
    let cursor = 0;
    while (true) {
      while (cursor < this.events.length) yield this.events[cursor++] as MessagesEventData;
      if (this.finished) {
        if (this.failure !== undefined) throw this.failure.error;
        return;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** The delta a `content-block-delta` event carries. */
function deltaOf(event: MessagesEventData): ContentBlockDelta | undefined {
  return event.event === "content-block-delta" ? event.delta : undefined;
}

function isReasoningBlock(block: ProtocolContentBlock): boolean {
  return block.type === "reasoning" || block.type === "thinking";
}

function reasoningText(block: ProtocolContentBlock): string | undefined {
  if (block.type === "reasoning" && typeof block.reasoning === "string") return block.reasoning;
  if (block.type === "thinking" && typeof block.thinking === "string") return block.thinking;
  return undefined;
}

function normalizeUsage(usage: UsageInfo | undefined): UsageInfo | undefined {
  return usage === undefined ? undefined : completeProtocolUsage(usage);
}

/** An async iterable of increments that also resolves (as a promise) to their total. */
abstract class AccumulatingStream<TItem, TTotal> implements AsyncIterable<TItem>, PromiseLike<TTotal> {
  protected readonly buffer: EventBuffer;

  constructor(buffer: EventBuffer) {
    this.buffer = buffer;
  }

  abstract [Symbol.asyncIterator](): AsyncIterator<TItem>;

  protected abstract total(items: TItem[]): TTotal;

  // biome-ignore lint/suspicious/noThenProperty: awaiting a projection gives its total, as in LangChain.js
  then<R1 = TTotal, R2 = never>(
    onfulfilled?: ((value: TTotal) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    const collect = async (): Promise<TTotal> => {
      const items: TItem[] = [];
      for await (const item of this) items.push(item);
      return this.total(items);
    };
    return collect().then(onfulfilled, onrejected);
  }
}

/** A stream of text increments: awaited, the whole text; `full`, the text so far after each increment. */
abstract class TextIncrementStream extends AccumulatingStream<string, string> {
  /** The text so far, after each increment. */
  get full(): AsyncIterable<string> {
    const self = this;
    return {
      async *[Symbol.asyncIterator]() {
        let text = "";
        for await (const piece of self) {
          text += piece;
          yield text;
        }
      },
    };
  }

  protected total(items: string[]): string {
    return items.join("");
  }
}

/** The text of a message: its increments as they stream, or (awaited) the whole text. */
export class TextContentStream extends TextIncrementStream {
  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for await (const event of this.buffer.iterate()) {
      const delta = deltaOf(event);
      if (delta?.type === "text-delta") yield delta.text;
    }
  }
}

/** The reasoning of a message (its first run of reasoning blocks). */
export class ReasoningContentStream extends TextIncrementStream {
  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    let seen = false;
    for await (const event of this.buffer.iterate()) {
      if (event.event === "content-block-start") {
        if (!isReasoningBlock(event.content)) {
          if (seen) return;
          continue;
        }
        seen = true;
        const text = reasoningText(event.content);
        if (text !== undefined && text !== "") yield text;
      } else if (event.event === "content-block-delta") {
        if (event.delta.type !== "reasoning-delta") continue;
        seen = true;
        if (event.delta.reasoning !== "") yield event.delta.reasoning;
      } else if (event.event === "content-block-finish" && isReasoningBlock(event.content)) {
        return;
      } else if (event.event === "message-finish") {
        return;
      }
    }
  }
}

/** The tool calls of a message, each as it finishes; awaited, all of them. */
export class ToolCallsStream extends AccumulatingStream<StreamedToolCall, StreamedToolCall[]> {
  /** The calls so far, after each one. */
  get full(): AsyncIterable<StreamedToolCall[]> {
    const self = this;
    return {
      async *[Symbol.asyncIterator]() {
        const calls: StreamedToolCall[] = [];
        for await (const call of self) {
          calls.push(call);
          yield [...calls];
        }
      },
    };
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamedToolCall> {
    for await (const event of this.buffer.iterate()) {
      if (event.event === "content-block-finish" && event.content.type === "tool_call") {
        yield event.content as StreamedToolCall;
      }
    }
  }

  protected total(items: StreamedToolCall[]): StreamedToolCall[] {
    return items;
  }
}

/** The token usage of a message, as reported; awaited, the last report (or `undefined`). */
export class UsageMetadataStream extends AccumulatingStream<UsageInfo, UsageInfo | undefined> {
  async *[Symbol.asyncIterator](): AsyncGenerator<UsageInfo> {
    for await (const event of this.buffer.iterate()) {
      const usage =
        event.event === "usage" || event.event === "message-start" || event.event === "message-finish"
          ? normalizeUsage(event.usage)
          : undefined;
      if (usage !== undefined) yield usage;
    }
  }

  protected total(items: UsageInfo[]): UsageInfo | undefined {
    return items[items.length - 1];
  }
}

/**
 * One message streamed on the `messages` channel. Iterate it for its protocol events, or use a
 * projection: `.text`, `.reasoning`, `.toolCalls`, `.usage` (each async-iterable and awaitable)
 * and `.output` (awaiting the stream itself does the same): the assembled message.
 *
 * @example
 * ```ts
 * for await (const message of run.messages) {
 *   for await (const token of message.text) process.stdout.write(token);
 * }
 * ```
 */
export class ChatModelStreamImpl implements AsyncIterable<MessagesEventData>, PromiseLike<unknown> {
  private readonly buffer = new EventBuffer();

  constructor(source: AsyncIterable<MessagesEventData>) {
    void this.consume(source);
  }

  private async consume(source: AsyncIterable<MessagesEventData>): Promise<void> {
    try {
      for await (const event of source) this.buffer.push(event);
      this.buffer.finish();
    } catch (error) {
      this.buffer.finish(error instanceof Error ? error : new Error(String(error)));
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<MessagesEventData> {
    return this.buffer.iterate();
  }

  get text(): TextContentStream {
    return new TextContentStream(this.buffer);
  }

  get toolCalls(): ToolCallsStream {
    return new ToolCallsStream(this.buffer);
  }

  get reasoning(): ReasoningContentStream {
    return new ReasoningContentStream(this.buffer);
  }

  get usage(): UsageMetadataStream {
    return new UsageMetadataStream(this.buffer);
  }

  /** The assembled message (an `AIMessage` with content blocks), once the message finished. */
  get output(): Promise<AssembledMessage> {
    return this.assemble();
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting the stream gives the message, as in LangChain.js
  then<R1 = AssembledMessage, R2 = never>(
    onfulfilled?: ((value: AssembledMessage) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.assemble().then(onfulfilled, onrejected);
  }

  private async assemble(): Promise<AssembledMessage> {
    const assembly = new StreamMessageAssembly();
    for await (const event of this.buffer.iterate()) assembly.add(event);
    const { id, content, usage, responseMetadata } = assembly.result();
    return messageFactory({
      id,
      content,
      usage_metadata: usage,
      response_metadata: responseMetadata,
    }) as AssembledMessage;
  }
}
