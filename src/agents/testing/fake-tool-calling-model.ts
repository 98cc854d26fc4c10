import { AIMessage, type BaseMessage, isHumanMessage, type MessageContent } from "../../messages/index.js";
import {
  BaseChatModel,
  type BaseChatModelParams,
  type ChatResult,
  type ConfiguredChatModel,
  StructuredOutputRunnable,
} from "../../models/index.js";
import type { BindToolsInput } from "../../tools/index.js";

/** A tool call scripted for {@link FakeToolCallingModel} (`type` is set to `"tool_call"`). */
export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string | undefined;
  type?: "tool_call" | undefined;
}

/**
 * Options of {@link FakeToolCallingModel}: `toolCalls[i]` are the tool calls of answer `i`
 * (cycling), `index` the first answer, `indexRef` a shared cursor, `structuredResponse` what
 * `withStructuredOutput` resolves to, `toolStyle` kept for compatibility.
 *
 * @example
 * ```ts
 * const fields: FakeToolCallingModelFields = { toolCalls: [[{ name: "search", args: { q: "x" }, id: "1" }], []] };
 * ```
 */
export interface FakeToolCallingModelFields extends BaseChatModelParams {
  toolCalls?: FakeToolCall[][] | undefined;
  toolStyle?: "openai" | "anthropic" | undefined;
  index?: number | undefined;
  indexRef?: { current: number } | undefined;
  structuredResponse?: unknown;
}

/** The text of one message content, as LangChain.js's fake model joins it. */
function partText(content: MessageContent): string {
  if (typeof content === "string") return content;
  return content
    .map((block) => {
      const value = block as unknown;
      if (typeof value === "string") return value;
      if (typeof value === "object" && value !== null && "text" in value)
        return String((value as { text: unknown }).text);
      return "";
    })
    .join("-");
}

function isEmptyContent(content: MessageContent): boolean {
  return typeof content === "string" && content === "";
}

/**
 * A fake chat model for tool-calling tests (LangChain.js `FakeToolCallingModel`, exported by
 * `langchain`). Answer `i` carries the tool calls `toolCalls[i]` (the list cycles) and the id
 * `String(i)`; its content echoes the input: the last message's content for a single message,
 * otherwise every message's text joined with `-`. A fresh conversation (one message, or two
 * human messages) starts again at answer 0. `bindTools` returns a new fake sharing the cursor,
 * with the tools appended to its `tools`; `withStructuredOutput` resolves to
 * `structuredResponse`.
 *
 * @example
 * ```ts
 * import { createAgent, FakeToolCallingModel, HumanMessage } from "agentgraph/agents";
 *
 * const model = new FakeToolCallingModel({
 *   toolCalls: [[{ name: "get_weather", args: { city: "Suzhou" }, id: "1" }], []],
 * });
 * const agent = createAgent({ model, tools: [getWeather] });
 * await agent.invoke({ messages: [new HumanMessage("Weather?")] });
 * ```
 */
export class FakeToolCallingModel extends BaseChatModel {
  toolCalls: FakeToolCall[][];
  toolStyle: "openai" | "anthropic";
  indexRef: { current: number };
  structuredResponse: unknown;
  /** The tools given to `bindTools` (empty on a model that was never bound). */
  tools: BindToolsInput[] = [];

  constructor(fields: FakeToolCallingModelFields = {}) {
    const { toolCalls = [], toolStyle = "openai", index = 0, structuredResponse, indexRef, ...rest } = fields;
    super(rest);
    this.toolCalls = toolCalls;
    this.toolStyle = toolStyle;
    this.indexRef = indexRef ?? { current: index };
    this.structuredResponse = structuredResponse;
  }

  /** The next answer's position in `toolCalls` (shared with bound copies). */
  get index(): number {
    return this.indexRef.current;
  }

  set index(value: number) {
    this.indexRef.current = value;
  }

  _llmType(): string {
    return "fake-tool-calling";
  }

  /**
   * A new fake that shares this one's cursor, with `tools` appended to its `tools`. (Typed as
   * the bound model `BaseChatModel.bindTools` returns; at run time it is a `FakeToolCallingModel`.)
   */
  override bindTools(tools: BindToolsInput[]): ConfiguredChatModel & FakeToolCallingModel {
    const next = new FakeToolCallingModel({
      toolCalls: this.toolCalls,
      toolStyle: this.toolStyle,
      structuredResponse: this.structuredResponse,
      indexRef: this.indexRef,
    });
    next.tools = [...this.tools, ...tools];
    return next as ConfiguredChatModel & FakeToolCallingModel;
  }

  /** A runnable resolving to `structuredResponse` (the schema is ignored; no call is made). */
  override withStructuredOutput<RunOutput = Record<string, unknown>>(
    _schema?: unknown,
    _options?: unknown,
  ): StructuredOutputRunnable<RunOutput> {
    const value = this.structuredResponse;
    return new StructuredOutputRunnable<RunOutput>(
      () => Promise.resolve(new AIMessage("")),
      () => Promise.resolve(value),
      false,
    );
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    let content = messages[messages.length - 1]?.content ?? "";
    if (messages.length > 1) {
      content = messages
        .map((m) => m.content)
        .filter((c) => !isEmptyContent(c))
        .map(partText)
        .join("-");
    }
    const fresh = messages.length === 1 || (messages.length === 2 && messages.every(isHumanMessage));
    if (fresh && this.index !== 0) this.index = 0;
    const calls = this.toolCalls[this.index] ?? [];
    const id = String(this.index);
    this.index = (this.index + 1) % Math.max(1, this.toolCalls.length);
    const message = new AIMessage({
      content,
      id,
      tool_calls:
        calls.length > 0 ? calls.map((call) => ({ ...call, type: "tool_call" as const })) : undefined,
    });
    return { generations: [{ text: typeof content === "string" ? content : "", message }], llmOutput: {} };
  }
}
