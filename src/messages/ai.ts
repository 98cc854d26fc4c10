import type { BaseMessageFields } from "./base.js";
import {
  BaseMessage,
  BaseMessageChunk,
  hasChunkType,
  hasMessageType,
  isBaseMessageChunk,
  markBuiltIn,
  markV1Content,
} from "./base.js";
import { mergeCommonChunkFields } from "./chunk-fields.js";
import type { ContentBlock, MessageContent } from "./content.js";
import { mergeLists } from "./merge.js";
import type { InvalidToolCall, ToolCall, ToolCallChunk } from "./tool-calls.js";
import { collapseToolCallChunks, defaultToolCallParser } from "./tool-calls.js";
import type { UsageMetadata } from "./usage.js";
import { mergeUsageMetadata } from "./usage.js";

/**
 * The fields of an AI message: the base fields plus tool calls and token usage.
 *
 * @example
 * ```ts
 * const fields: AIMessageFields = {
 *   content: "",
 *   tool_calls: [{ name: "get_weather", args: { city: "Suzhou" }, id: "call_1" }],
 *   usage_metadata: { input_tokens: 20, output_tokens: 8, total_tokens: 28 },
 * };
 * ```
 */
export interface AIMessageFields extends BaseMessageFields {
  tool_calls?: ToolCall[] | undefined;
  invalid_tool_calls?: InvalidToolCall[] | undefined;
  usage_metadata?: UsageMetadata | undefined;
}

/**
 * The fields of an AI message chunk: AI message fields plus streamed tool-call fragments.
 * When `tool_call_chunks` is non-empty, `tool_calls` and `invalid_tool_calls` are derived
 * from the fragments and the given ones are ignored.
 *
 * @example
 * ```ts
 * const fields: AIMessageChunkFields = {
 *   content: "",
 *   tool_call_chunks: [{ name: "search", args: '{"q":', id: "call_1", index: 0, type: "tool_call_chunk" }],
 * };
 * ```
 */
export interface AIMessageChunkFields extends AIMessageFields {
  tool_call_chunks?: ToolCallChunk[] | undefined;
}

/**
 * A model's reply: content, plus the tools it asks to run (`tool_calls`), calls whose
 * arguments did not parse (`invalid_tool_calls`) and token usage (`usage_metadata`).
 * Tool calls given in the legacy OpenAI form in `additional_kwargs.tool_calls` are parsed
 * into `tool_calls` when `tool_calls` itself is not given.
 *
 * @example
 * ```ts
 * const reply = new AIMessage({
 *   content: "",
 *   tool_calls: [{ name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" }],
 * });
 * reply.tool_calls[0]?.args.city; // "Suzhou"
 * ```
 */
export class AIMessage extends BaseMessage {
  readonly type = "ai" as const;
  /** The tool calls the model requested. */
  tool_calls: ToolCall[];
  /** Tool calls whose arguments could not be parsed. */
  invalid_tool_calls: InvalidToolCall[];
  /** Token usage of the call that produced this message, when the provider reported it. */
  usage_metadata: UsageMetadata | undefined;

  constructor(fields: MessageContent | AIMessageFields) {
    super(fields);
    if (typeof fields === "string" || Array.isArray(fields)) {
      this.tool_calls = [];
      this.invalid_tool_calls = [];
      this.usage_metadata = undefined;
      return;
    }
    // tool calls are kept as given, as LangChain.js keeps them: a call written without
    // `type: "tool_call"` reads back without it (a ToolNode tags each call it runs)
    const raw = fields.additional_kwargs?.tool_calls;
    if (fields.tool_calls == null && Array.isArray(raw)) {
      // parsed as LangChain.js's constructor parses them (its defaultToolCallParser: any JSON
      // value is valid arguments, a falsy one reads as {}); a malformed list gives no calls.
      // The parsed calls replace given `invalid_tool_calls`, as there.
      let parsed: [ToolCall[], InvalidToolCall[]];
      try {
        parsed = defaultToolCallParser(raw as object[]);
      } catch {
        parsed = [[], []];
      }
      this.tool_calls = parsed[0];
      this.invalid_tool_calls = parsed[1];
    } else {
      this.tool_calls = fields.tool_calls ?? [];
      this.invalid_tool_calls = fields.invalid_tool_calls ?? [];
    }
    this.usage_metadata = fields.usage_metadata ?? undefined;
    if (fields.contentBlocks !== undefined || this.response_metadata.output_version === "v1") {
      alignStandardBlocks(this, fields);
    }
    // content marked v1 is read as given content blocks, as LangChain.js's constructor reads it,
    // which lists `output_version` first in the metadata
    if (fields.content !== undefined && this.response_metadata.output_version === "v1") {
      this.response_metadata = { output_version: "v1", ...this.response_metadata };
      // serialized with its blocks too, as LangChain.js's AIMessage (not its chunk) writes it
      if (!isBaseMessageChunk(this)) markV1Content(this);
    }
  }

  static override lc_name(): string {
    return "AIMessage";
  }

  static override isInstance(value: unknown): value is AIMessage {
    return hasMessageType(value, "ai");
  }
}

/**
 * Standard (v1) content and `tool_calls` list the same calls, as in LangChain.js: given
 * `contentBlocks` (or content marked `output_version: "v1"`), each `tool_call` block missing
 * from `tool_calls` is added to them, and (when the blocks become the content) each tool call
 * missing from the blocks is appended to the content. (A function, not a method: a private
 * member would keep `AIMessageChunk` from being assignable to `AIMessage`.)
 */
function alignStandardBlocks(message: AIMessage, fields: AIMessageFields): void {
  const v1Content = fields.content !== undefined && message.response_metadata.output_version === "v1";
  const given = v1Content ? message.content : fields.contentBlocks;
  if (given === undefined) return;
  // the given array itself unless calls must be appended (then a copy: the caller's is kept);
  // as in LangChain.js, a string is one text block, `null` none and a single block a list of one
  const loose = given as ContentBlock[] | ContentBlock | string | null;
  let blocks: ContentBlock[] =
    typeof loose === "string"
      ? loose.length > 0
        ? [{ type: "text", text: loose }]
        : []
      : Array.isArray(loose)
        ? loose
        : loose === null
          ? []
          : [loose];
  const sameCall = (block: ContentBlock, call: ToolCall) =>
    block.type === "tool_call" && block.id === call.id && block.name === call.name;
  // each call is looked for among the given blocks only, so two alike calls are both appended
  const givenCount = blocks.length;
  for (const call of message.tool_calls) {
    if (!blocks.some((block, i) => i < givenCount && sameCall(block, call))) {
      if (blocks === given) blocks = [...blocks];
      blocks.push({ type: "tool_call", id: call.id, name: call.name, args: call.args });
    }
  }
  const missing: ToolCall[] = [];
  for (const block of blocks) {
    if (block.type === "tool_call" && !message.tool_calls.some((call) => sameCall(block, call))) {
      const { id, name, args } = block as ContentBlock & Partial<ToolCall>;
      missing.push({ type: "tool_call", id, name: name ?? "", args: args ?? {} });
    }
  }
  if (missing.length > 0) message.tool_calls = [...message.tool_calls, ...missing];
  if (v1Content || fields.content === undefined) message.content = blocks;
}

/**
 * A streamed fragment of an AI message. `concat` joins fragments: text appends, content
 * blocks and tool-call fragments with the same `index` merge, metadata merges, usage adds
 * up. `tool_calls` is derived from `tool_call_chunks` (parsing partial JSON, so it shows the
 * arguments received so far) when first read; fragments whose text is not a JSON object, or
 * that lack an id, show up in `invalid_tool_calls` instead.
 *
 * @example
 * ```ts
 * const a = new AIMessageChunk({ content: "", tool_call_chunks: [{ name: "search", args: '{"q": "ca', id: "c1", index: 0 }] });
 * const b = new AIMessageChunk({ content: "", tool_call_chunks: [{ args: 't"}', index: 0 }] });
 * a.concat(b).tool_calls; // [{ name: "search", args: { q: "cat" }, id: "c1", type: "tool_call" }]
 * ```
 */
export class AIMessageChunk extends BaseMessageChunk {
  readonly type = "ai" as const;
  /** The tool calls so far (derived from `tool_call_chunks` when there are any). */
  declare tool_calls: ToolCall[];
  /** Tool calls whose arguments do not parse (derived like `tool_calls`). */
  declare invalid_tool_calls: InvalidToolCall[];
  /** The raw streamed tool-call fragments. */
  tool_call_chunks: ToolCallChunk[];
  /** Token usage reported so far. */
  usage_metadata: UsageMetadata | undefined;

  constructor(fields: MessageContent | AIMessageChunkFields) {
    super(fields);
    if (typeof fields === "string" || Array.isArray(fields)) {
      this.tool_call_chunks = [];
      this.tool_calls = [];
      this.invalid_tool_calls = [];
      this.usage_metadata = undefined;
      return;
    }
    const chunks = fields.tool_call_chunks ?? [];
    this.tool_call_chunks = chunks;
    if (chunks.length > 0) {
      this.defineDerivedToolCalls(chunks);
    } else {
      this.tool_calls = fields.tool_calls ?? [];
      this.invalid_tool_calls = fields.invalid_tool_calls ?? [];
    }
    this.usage_metadata = fields.usage_metadata ?? undefined;
  }

  static override lc_name(): string {
    return "AIMessageChunk";
  }

  static override isInstance(value: unknown): value is AIMessageChunk {
    return hasChunkType(value, "ai");
  }

  /**
   * Collapsing fragments parses the whole argument text, so it waits until someone reads
   * `tool_calls`: a stream of N fragments then costs one parse, not N. The properties are
   * own and enumerable (spread and `Object.entries` still see them); assigning replaces them.
   */
  private defineDerivedToolCalls(chunks: readonly ToolCallChunk[]): void {
    let collapsed: ReturnType<typeof collapseToolCallChunks> | undefined;
    for (const key of ["tool_calls", "invalid_tool_calls"] as const) {
      Object.defineProperty(this, key, {
        get: () => {
          collapsed ??= collapseToolCallChunks(chunks);
          return collapsed[key];
        },
        set: (value: unknown) => {
          Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
        },
        enumerable: true,
        configurable: true,
      });
    }
  }

  concat(chunk: AIMessageChunk): AIMessageChunk {
    const fields: AIMessageChunkFields = mergeCommonChunkFields(this, chunk);
    const fragments = mergeLists(this.tool_call_chunks, chunk.tool_call_chunks);
    if (fragments !== undefined && fragments.length > 0) {
      fields.tool_call_chunks = fragments;
    } else {
      fields.tool_calls = mergeLists(this.tool_calls, chunk.tool_calls) ?? [];
      // (`?? []`: LangChain.js also joins a chunk of another kind, which has no tool calls)
      fields.invalid_tool_calls = [...this.invalid_tool_calls, ...(chunk.invalid_tool_calls ?? [])];
    }
    if (this.usage_metadata !== undefined || chunk.usage_metadata !== undefined) {
      fields.usage_metadata = mergeUsageMetadata(this.usage_metadata, chunk.usage_metadata);
    }
    const Chunk = this.constructor as typeof AIMessageChunk;
    return new Chunk(fields);
  }
}

markBuiltIn(AIMessage);
markBuiltIn(AIMessageChunk);

/**
 * True for an AI message (chunks included), from any copy of agentgraph.
 *
 * @example
 * ```ts
 * const last = state.messages.at(-1);
 * if (isAIMessage(last) && last.tool_calls.length > 0) return "tools";
 * ```
 */
export function isAIMessage(value: unknown): value is AIMessage {
  return hasMessageType(value, "ai");
}

/**
 * True for an AI message, chunk or whole: like LangChain.js's (deprecated) `isAIMessageChunk`,
 * it checks the message type only. Use `isBaseMessageChunk` or `AIMessageChunk.isInstance` to
 * tell a chunk from a whole message.
 *
 * @example
 * ```ts
 * isAIMessageChunk(new AIMessageChunk("tok")); // true
 * isAIMessageChunk(new AIMessage("whole")); // true, as in LangChain.js
 * isAIMessageChunk(new HumanMessage("hi")); // false
 * ```
 */
export function isAIMessageChunk(value: unknown): value is AIMessageChunk {
  return hasMessageType(value, "ai");
}
