import { AIMessage, type BaseMessage, isBaseMessage } from "../../messages/index.js";
import {
  BaseChatModel,
  type ChatResult,
  type ConfiguredChatModel,
  StructuredOutputRunnable,
} from "../../models/index.js";
import type { BindToolsInput } from "../../tools/index.js";

/**
 * A scripted answer of {@link fakeModel}: a function of the messages the call received that
 * returns the answer, or an `Error` to throw.
 *
 * @example
 * ```ts
 * const echo: ResponseFactory = (messages) => new AIMessage(`got ${messages.length}`);
 * ```
 */
export type ResponseFactory = (messages: BaseMessage[]) => BaseMessage | Error;

/**
 * One recorded invocation of a {@link FakeBuiltModel}: the messages it received (system
 * message included) and the call options `_generate` was given.
 *
 * @example
 * ```ts
 * const call: FakeModelCall = model.calls[0];
 * call.messages[0].text; // "You are helpful."
 * ```
 */
export interface FakeModelCall {
  messages: BaseMessage[];
  options: Record<string, unknown>;
}

/** A tool call queued with `respondWithTools`; `id` defaults to `fake_tc_<n>`. */
export interface FakeToolCallInput {
  name: string;
  args: Record<string, unknown>;
  id?: string | undefined;
}

type QueueEntry =
  | { kind: "message"; message: BaseMessage }
  | { kind: "error"; error: Error }
  | { kind: "factory"; factory: ResponseFactory }
  | { kind: "toolCalls"; toolCalls: Array<{ name: string; args: Record<string, unknown>; id: string }> };

interface SharedState {
  callIndex: number;
  calls: FakeModelCall[];
}

let toolCallCounter = 0;

/** The ids of tool calls queued without one, unique in the process (LangChain.js's format). */
function nextToolCallId(): string {
  toolCallCounter += 1;
  return `fake_tc_${toolCallCounter}`;
}

/** The texts of the messages, empty ones left out, joined with `-`. */
function joinedText(messages: readonly BaseMessage[]): string {
  return messages
    .map((m) => m.text)
    .filter((text) => text !== "")
    .join("-");
}

/**
 * The chat model {@link fakeModel} builds (LangChain.js `FakeBuiltModel`). Answers are queued
 * with `respond` / `respondWithTools` and consumed first in, first out, one per call; a call
 * with nothing left in the queue throws
 * `FakeModel: no response queued for invocation <i> (<n> total queued).`. Every call is recorded
 * in `calls` (`{ messages, options }`), and `callCount` counts them, failed calls included.
 *
 * @example
 * ```ts
 * const model = fakeModel()
 *   .respondWithTools([{ name: "search", args: { query: "weather" } }])
 *   .respond(new AIMessage("Sunny and warm."));
 * const agent = createAgent({ model, tools: [search] });
 * await agent.invoke({ messages: [new HumanMessage("What's the weather?")] });
 * model.callCount; // 2
 * ```
 */
export class FakeBuiltModel extends BaseChatModel {
  private queue: QueueEntry[] = [];
  private alwaysThrowError: Error | undefined;
  private structuredValue: Record<string, unknown> | undefined;
  private boundTools: BindToolsInput[] = [];
  private shared: SharedState = { callIndex: 0, calls: [] };

  constructor() {
    super({});
  }

  /** Every invocation, in order: the messages and the options it received. */
  get calls(): FakeModelCall[] {
    return this.shared.calls;
  }

  /** How many times the model was invoked. */
  get callCount(): number {
    return this.shared.calls.length;
  }

  _llmType(): string {
    return "fake-model-builder";
  }

  /**
   * Queues the answer of the next unanswered call: a message to return, an `Error` to throw,
   * or a factory `(messages) => message | Error`.
   */
  respond(entry: BaseMessage | Error | ResponseFactory): this {
    if (typeof entry === "function") this.queue.push({ kind: "factory", factory: entry });
    else if (isBaseMessage(entry)) this.queue.push({ kind: "message", message: entry });
    else this.queue.push({ kind: "error", error: entry });
    return this;
  }

  /**
   * Queues an `AIMessage` carrying these tool calls (ids default to `fake_tc_<n>`); its content
   * is the received messages' texts joined with `-`, its id the call's index.
   */
  respondWithTools(toolCalls: FakeToolCallInput[]): this {
    this.queue.push({
      kind: "toolCalls",
      toolCalls: toolCalls.map((call) => ({
        name: call.name,
        args: call.args,
        id: call.id ?? nextToolCallId(),
      })),
    });
    return this;
  }

  /** Makes every call throw `error`, whatever is queued. */
  alwaysThrow(error: Error): this {
    this.alwaysThrowError = error;
    return this;
  }

  /** Sets what `withStructuredOutput(...).invoke()` resolves to. */
  structuredResponse(value: Record<string, unknown>): this {
    this.structuredValue = value;
    return this;
  }

  /**
   * Returns a bound model that shares this model's queue and call history (the tools are
   * accepted and not sent anywhere).
   */
  override bindTools(tools: BindToolsInput[]): ConfiguredChatModel {
    const next = new FakeBuiltModel();
    next.queue = this.queue;
    next.alwaysThrowError = this.alwaysThrowError;
    next.structuredValue = this.structuredValue;
    next.boundTools = [...this.boundTools, ...tools];
    next.shared = this.shared;
    return next.withConfig({});
  }

  /**
   * Returns a runnable resolving to the `structuredResponse(value)` value; the schema and
   * options are ignored and no call is made or recorded.
   */
  override withStructuredOutput<RunOutput = Record<string, unknown>>(
    _schema?: unknown,
    _options?: unknown,
  ): StructuredOutputRunnable<RunOutput> {
    const value = this.structuredValue;
    return new StructuredOutputRunnable<RunOutput>(
      () => Promise.resolve(new AIMessage("")),
      () => Promise.resolve(value),
      false,
    );
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    this.shared.calls.push({ messages: [...messages], options: options as Record<string, unknown> });
    const index = this.shared.callIndex;
    this.shared.callIndex += 1;
    if (this.alwaysThrowError !== undefined) throw this.alwaysThrowError;
    const entry = this.queue[index];
    if (entry === undefined) {
      throw new Error(
        `FakeModel: no response queued for invocation ${index} (${this.queue.length} total queued).`,
      );
    }
    switch (entry.kind) {
      case "error":
        throw entry.error;
      case "factory": {
        const result = entry.factory(messages);
        if (!isBaseMessage(result)) throw result;
        return { generations: [{ text: "", message: result }] };
      }
      case "message":
        return { generations: [{ text: "", message: entry.message }] };
      case "toolCalls": {
        const content = joinedText(messages);
        const message = new AIMessage({
          content,
          id: String(index),
          tool_calls: entry.toolCalls.map((call) => ({ ...call, type: "tool_call" as const })),
        });
        return { generations: [{ text: content, message }], llmOutput: {} };
      }
    }
  }
}

/**
 * Creates a scripted chat model for tests (LangChain.js `fakeModel` from
 * `@langchain/core/testing`, re-exported by `langchain`). Chain `respond(message | error |
 * factory)`, `respondWithTools(toolCalls)`, `alwaysThrow(error)` and `structuredResponse(value)`,
 * then pass the model wherever a chat model is expected; read `calls` and `callCount` afterwards.
 *
 * @example
 * ```ts
 * import { AIMessage, HumanMessage, fakeModel } from "agentgraph/agents";
 *
 * const model = fakeModel()
 *   .respondWithTools([{ name: "search", args: { query: "weather" } }])
 *   .respond(new AIMessage("Sunny and warm."));
 * (await model.invoke([new HumanMessage("What's the weather?")])).tool_calls[0]?.name; // "search"
 * (await model.invoke([new HumanMessage("Thanks")])).content; // "Sunny and warm."
 * ```
 */
export function fakeModel(): FakeBuiltModel {
  return new FakeBuiltModel();
}
