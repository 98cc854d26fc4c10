import { InvalidArgumentError } from "../shared/index.js";
import type { BaseMessageFields } from "./base.js";
import { BaseMessage, BaseMessageChunk, hasChunkType, hasMessageType, markBuiltIn } from "./base.js";
import { mergeCommonChunkFields } from "./chunk-fields.js";
import type { MessageContent } from "./content.js";
import { mergeStatus, mergeValues } from "./merge.js";

/**
 * The fields of a tool message. `tool_call_id` (required) names the tool call answered;
 * `status` says whether the tool succeeded (left `undefined` when not given, as in LangChain.js;
 * tools set it); `artifact` carries the full
 * tool output for the application, which is not sent to the model.
 *
 * @example
 * ```ts
 * const fields: ToolMessageFields = { content: "It's sunny", tool_call_id: "call_1", name: "get_weather" };
 * ```
 */
export interface ToolMessageFields extends BaseMessageFields {
  tool_call_id: string;
  status?: "success" | "error" | undefined;
  artifact?: unknown;
  /** Application data about the tool run (LangChain.js `ToolMessage.metadata`); never sent to the model. */
  metadata?: Record<string, unknown> | undefined;
}

/**
 * Reads `tool_call_id`, accepting numbers (as Python LangChain does) and rejecting absence.
 * For a `ToolMessage`, `null` stands for "no id": what a ToolNode answers a call without an id
 * with (LangGraph.js leaves the field `undefined` there), stored and read back as `null`.
 */
function requireToolCallId(value: unknown, className: string, allowNull = false): string {
  if (typeof value === "string") return value;
  if (value === null && allowNull) return undefined as unknown as string;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new InvalidArgumentError(
    `${className} requires a tool_call_id (the id of the tool call it answers), got ${JSON.stringify(value) ?? String(value)}. ` +
      `Pass it as new ${className}({ content, tool_call_id }).`,
  );
}

/** The given status when it is one of the two, else `undefined` (LangChain.js sets no default). */
function readStatus(value: unknown): "success" | "error" | undefined {
  return value === "error" || value === "success" ? value : undefined;
}

/**
 * The result of running a tool, sent back to the model. Construct it from fields, or as
 * `new ToolMessage(content, tool_call_id, name)`.
 *
 * @example
 * ```ts
 * const result = new ToolMessage({ content: "It's always sunny in Suzhou!", tool_call_id: "call_1", name: "get_weather" });
 * const failed = new ToolMessage({ content: "Error: timeout", tool_call_id: "call_2", status: "error" });
 * ```
 */
export class ToolMessage extends BaseMessage {
  readonly type = "tool" as const;
  /** The id of the tool call this message answers. */
  tool_call_id: string;
  /** Whether the tool succeeded; `undefined` unless given (tools and `ToolNode` always set it). */
  status: "success" | "error" | undefined;
  /** The full tool output for the application; never sent to the model. */
  artifact: unknown;
  /** Application data about the tool run, when given; never sent to the model. */
  declare metadata?: Record<string, unknown>;

  constructor(fields: ToolMessageFields);
  constructor(content: MessageContent, tool_call_id: string, name?: string);
  constructor(fields: MessageContent | ToolMessageFields, tool_call_id?: string, name?: string) {
    const given: ToolMessageFields =
      typeof fields === "string" || Array.isArray(fields)
        ? { content: fields, tool_call_id: tool_call_id as string, name }
        : fields;
    super(given);
    this.tool_call_id = requireToolCallId(given.tool_call_id, "ToolMessage", true);
    this.status = readStatus(given.status);
    this.artifact = given.artifact;
    // an own key only when given: most tool messages carry none
    if (given.metadata !== undefined) this.metadata = given.metadata;
  }

  static override lc_name(): string {
    return "ToolMessage";
  }

  static override isInstance(value: unknown): value is ToolMessage {
    return hasMessageType(value, "tool");
  }
}

/**
 * A streamed fragment of a tool message; `concat` joins content and artifacts, and the
 * status becomes `"error"` if either fragment says so.
 *
 * @example
 * ```ts
 * const a = new ToolMessageChunk({ content: "Sun", tool_call_id: "call_1" });
 * a.concat(new ToolMessageChunk({ content: "ny", tool_call_id: "call_1" })).content; // "Sunny"
 * ```
 */
export class ToolMessageChunk extends BaseMessageChunk {
  readonly type = "tool" as const;
  /** The id of the tool call this message answers. */
  tool_call_id: string;
  /** Whether the tool succeeded; `undefined` unless given (tools and `ToolNode` always set it). */
  status: "success" | "error" | undefined;
  /** The full tool output for the application; never sent to the model. */
  artifact: unknown;

  constructor(fields: ToolMessageFields) {
    super(fields);
    this.tool_call_id = requireToolCallId(fields.tool_call_id, "ToolMessageChunk");
    this.status = readStatus(fields.status);
    this.artifact = fields.artifact;
  }

  static override lc_name(): string {
    return "ToolMessageChunk";
  }

  static override isInstance(value: unknown): value is ToolMessageChunk {
    return hasChunkType(value, "tool");
  }

  concat(chunk: ToolMessageChunk): ToolMessageChunk {
    const Chunk = this.constructor as typeof ToolMessageChunk;
    return new Chunk({
      ...mergeCommonChunkFields(this, chunk),
      tool_call_id: this.tool_call_id,
      status: mergeStatus(this.status, chunk.status),
      artifact: mergeValues(this.artifact, chunk.artifact),
    });
  }
}

markBuiltIn(ToolMessage);
// LangChain.js marks a ToolMessage as a tool's direct output (a tool returning one is not
// wrapped again), so `isDirectToolOutput(toolMessage)` is true; on the prototype, as the type
// needs no such field.
Object.defineProperty(ToolMessage.prototype, "lc_direct_tool_output", { value: true });
markBuiltIn(ToolMessageChunk);

/**
 * True for a tool message (chunks included), from any copy of agentgraph.
 *
 * @example
 * ```ts
 * const answered = new Set(messages.filter(isToolMessage).map((m) => m.tool_call_id));
 * ```
 */
export function isToolMessage(value: unknown): value is ToolMessage {
  return hasMessageType(value, "tool");
}

/**
 * True for a tool message, chunk or whole (LangChain.js checks the type only).
 *
 * @example
 * ```ts
 * isToolMessageChunk(new ToolMessageChunk({ content: "x", tool_call_id: "c" })); // true
 * isToolMessageChunk(new ToolMessage("x", "c")); // true, as in LangChain.js
 * ```
 */
export function isToolMessageChunk(value: unknown): value is ToolMessageChunk {
  return hasMessageType(value, "tool");
}

/** A value a tool returns as it is, never wrapped in a `ToolMessage` (a `ToolMessage` is one). */
export interface DirectToolOutput {
  readonly lc_direct_tool_output: true;
}

/**
 * True for a value marked `lc_direct_tool_output: true`, which a tool returns as it is, never
 * wrapped in a `ToolMessage` (LangChain.js `isDirectToolOutput`).
 *
 * @example
 * ```ts
 * isDirectToolOutput({ lc_direct_tool_output: true, output: "raw" }); // true
 * isDirectToolOutput(new ToolMessage({ content: "r", tool_call_id: "c" })); // true, as in LangChain.js
 * ```
 */
export function isDirectToolOutput(value: unknown): value is DirectToolOutput {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { lc_direct_tool_output?: unknown }).lc_direct_tool_output === true
  );
}
