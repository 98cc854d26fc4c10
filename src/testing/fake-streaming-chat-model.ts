import { AIMessage, AIMessageChunk, type BaseMessage, type MessageContent } from "../messages/index.js";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  ChatGenerationChunk,
  type ChatModelRun,
  type ChatResult,
  type ConfiguredChatModel,
} from "../models/index.js";
import { type BindToolsInput, type JsonSchema, toJsonSchema, toToolDefinition } from "../tools/index.js";

/**
 * The least a tool needs to be offered to {@link FakeStreamingChatModel.bindTools}
 * (`@langchain/core/utils/testing`'s `ToolSpec`): a name, a description and a schema (Zod or
 * JSON Schema). Tool instances and the other descriptor forms are taken too.
 *
 * @example
 * ```ts
 * const spec: ToolSpec = { name: "lookup", description: "Looks something up.", schema: { type: "object" } };
 * ```
 */
export interface ToolSpec {
  name: string;
  description?: string;
  schema: object;
}

/**
 * Call options of {@link FakeStreamingChatModel}: those of every chat model.
 *
 * @example
 * ```ts
 * const options: FakeStreamingChatModelCallOptions = { signal: controller.signal };
 * ```
 */
export interface FakeStreamingChatModelCallOptions extends BaseChatModelCallOptions {}

/**
 * Options of {@link FakeStreamingChatModel} (`@langchain/core/utils/testing`'s fields); all
 * optional.
 *
 * @example
 * ```ts
 * const fields: FakeStreamingChatModelFields = { sleep: 0, responses: [new AIMessage("Hello")] };
 * ```
 */
export interface FakeStreamingChatModelFields extends BaseChatModelParams {
  /** Milliseconds to wait before each character when streaming without `chunks` (default 50). */
  sleep?: number;
  /** The answer's message (only the first is used); without it the first input message is echoed. */
  responses?: BaseMessage[];
  /** The exact chunks `stream` yields (tool calls included); the first one's tool calls go into `invoke`'s answer. */
  chunks?: AIMessageChunk[];
  /** How `bindTools` describes tools (default `"openai"`). */
  toolStyle?: "openai" | "anthropic" | "bedrock" | "google";
  /** Every call fails with an `Error` of this message. */
  thrownErrorString?: string;
}

/**
 * A tool as {@link FakeStreamingChatModel.bindTools} describes it, depending on `toolStyle`.
 *
 * @example
 * ```ts
 * const openai: FakeToolDescriptor = { type: "function", function: { name: "lookup", description: "…", parameters: {} } };
 * ```
 */
export type FakeToolDescriptor =
  | {
      type: "function";
      function: { name: string; description: string | undefined; parameters: JsonSchema };
    }
  | { name: string; description: string | undefined; input_schema: JsonSchema }
  | { toolSpec: { name: string; description: string | undefined; inputSchema: JsonSchema } }
  | { name: string; description: string | undefined; parameters: JsonSchema };

/**
 * The streaming fake chat model of `@langchain/core/utils/testing`, for ported tests. As
 * LangChain.js's:
 *
 * - `invoke` answers with the content of `responses[0]` (else of the first input message) and the
 *   tool calls of `chunks[0]`;
 * - `stream` with `chunks` yields one chunk per entry (its content, tool calls and
 *   `additional_kwargs`), each reported to token callbacks with its chunk; without `chunks` it
 *   yields the text of `responses[0]` (else of the first input message) one character at a
 *   time, `sleep` milliseconds apart; an aborted `signal` stops it;
 * - `thrownErrorString` makes every call throw an `Error` with that message;
 * - `bindTools(tools)` returns a new fake, bound with `withConfig({ tools })`, whose `tools`
 *   are described in the `toolStyle`'s form (`openai`, `anthropic`, `bedrock` or `google`); an
 *   unknown style throws `Unsupported tool style: …`. Tools bound before are kept.
 *
 * @example
 * ```ts
 * const model = new FakeStreamingChatModel({ sleep: 0, responses: [new AIMessage("Hi")] });
 * (await model.invoke("hello")).content; // "Hi"
 * for await (const chunk of await model.stream("hello")) chunk.content; // "H", then "i"
 * ```
 */
export class FakeStreamingChatModel extends BaseChatModel<FakeStreamingChatModelCallOptions> {
  sleep = 50;
  responses: BaseMessage[] = [];
  chunks: AIMessageChunk[] = [];
  toolStyle: "openai" | "anthropic" | "bedrock" | "google" = "openai";
  thrownErrorString: string | undefined;
  /** The tools bound so far (as given). */
  private tools: BindToolsInput[] = [];

  constructor({
    sleep = 50,
    responses = [],
    chunks = [],
    toolStyle = "openai",
    thrownErrorString,
    ...rest
  }: FakeStreamingChatModelFields = {}) {
    super(rest);
    this.sleep = sleep;
    this.responses = responses;
    this.chunks = chunks;
    this.toolStyle = toolStyle;
    this.thrownErrorString = thrownErrorString;
  }

  _llmType(): string {
    return "fake";
  }

  /**
   * A new fake with these tools added to the ones bound before, bound with
   * `withConfig({ tools })` where `tools` are described in the `toolStyle`'s form (other
   * options, such as `tool_choice`, are ignored, as in LangChain.js).
   */
  override bindTools(tools: BindToolsInput[]): ConfiguredChatModel<FakeStreamingChatModelCallOptions> {
    const merged = [...this.tools, ...tools];
    const described = merged.map((t) => describeTool(t, this.toolStyle));
    const wrapped = this.toolStyle === "google" ? [{ functionDeclarations: described }] : described;
    const next = new FakeStreamingChatModel({
      sleep: this.sleep,
      responses: this.responses,
      chunks: this.chunks,
      toolStyle: this.toolStyle,
      ...(this.thrownErrorString === undefined ? {} : { thrownErrorString: this.thrownErrorString }),
    });
    next.tools = merged;
    return next.withConfig({ tools: wrapped });
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    if (this.thrownErrorString) throw new Error(this.thrownErrorString);
    const content = this.responses[0]?.content ?? messages[0]?.content ?? "";
    return {
      generations: [
        { text: "", message: new AIMessage({ content, tool_calls: this.chunks[0]?.tool_calls }) },
      ],
    };
  }

  /**
   * Reports each chunk itself through `runManager.handleLLMNewToken`, as LangChain.js's fake
   * does; `reportsStreamedChunks` stays `false`, so the base class does not report them again.
   */
  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    if (this.thrownErrorString) throw new Error(this.thrownErrorString);
    if (this.chunks.length > 0) {
      for (const given of this.chunks) {
        const message = new AIMessageChunk({
          content: given.content,
          tool_calls: given.tool_calls,
          additional_kwargs: given.additional_kwargs ?? {},
        });
        const chunk = new ChatGenerationChunk({ text: message.text, message });
        if (options.signal?.aborted) break;
        yield chunk;
        // the token is the chunk's content as given, as LangChain.js reports it
        await runManager?.handleLLMNewToken(
          given.content as string,
          undefined,
          undefined,
          undefined,
          undefined,
          { chunk },
        );
      }
      return;
    }
    const text = textOf(this.responses[0]?.content ?? textOf(messages[0]?.content));
    for (const character of text) {
      await new Promise((resolve) => setTimeout(resolve, this.sleep));
      const chunk = new ChatGenerationChunk({
        text: character,
        message: new AIMessageChunk({ content: character }),
      });
      if (options.signal?.aborted) break;
      yield chunk;
      await runManager?.handleLLMNewToken(character, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

/** Only string content streams: anything else streams nothing, as in LangChain.js. */
function textOf(content: MessageContent | undefined): string {
  return typeof content === "string" ? content : "";
}

/** A tool in the form `toolStyle` asks for; its schema as JSON Schema. */
function describeTool(tool: BindToolsInput, toolStyle: string): FakeToolDescriptor {
  switch (toolStyle) {
    case "openai": {
      const { name, description, schema } = nameAndSchema(tool);
      return { type: "function", function: { name, description, parameters: schema } };
    }
    case "anthropic": {
      const { name, description, schema } = nameAndSchema(tool);
      return { name, description, input_schema: schema };
    }
    case "bedrock": {
      const { name, description, schema } = nameAndSchema(tool);
      return { toolSpec: { name, description, inputSchema: schema } };
    }
    case "google": {
      const { name, description, schema } = nameAndSchema(tool);
      return { name, description, parameters: schema };
    }
    default:
      throw new Error(`Unsupported tool style: ${toolStyle}`);
  }
}

/**
 * The name, description and JSON Schema of a tool: its own `schema` converted (as LangChain.js
 * reads `tool.schema`), else the descriptor's `parameters` / `input_schema` / OpenAI function.
 */
function nameAndSchema(tool: BindToolsInput): {
  name: string;
  description: string | undefined;
  schema: JsonSchema;
} {
  if (typeof tool === "object" && tool !== null && "schema" in tool && "name" in tool) {
    const t = tool as { name: string; description?: string; schema: unknown };
    return { name: t.name, description: t.description, schema: toJsonSchema(t.schema) };
  }
  const definition = toToolDefinition(tool);
  return { name: definition.name, description: definition.description, schema: definition.parameters };
}
