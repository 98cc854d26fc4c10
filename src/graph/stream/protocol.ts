/**
 * The event vocabulary of `streamEvents(input, { version: "v3" })` (the LangGraph streaming
 * protocol): every event is `{ type: "event", seq, method, params: { namespace, timestamp,
 * node?, data } }`, where `method` names the channel the event belongs to (`values`, `updates`,
 * `messages`, `tools`, `custom`, `tasks`, `checkpoints`, `lifecycle`, or `custom:<name>` for a
 * transformer's remote {@link StreamChannel}).
 */
import type { ContentBlockDelta, ProtocolContentBlock, ProtocolUsage } from "../../shared/index.js";
import type { StreamMode } from "./types.js";

/** Where an event comes from: the `"<node>:<taskId>"` segments of the task or subgraph, `[]` for the root graph. */
export type Namespace = string[];

/** An event's channel: a stream mode, `lifecycle`, `input`, or a transformer's own name. */
export type ProtocolMethod = StreamMode | "lifecycle" | "input" | (string & {});

/** One event of a v3 run stream. */
export interface ProtocolEvent {
  readonly type: "event";
  /** Position of the event in the run's stream (0, 1, 2, …). */
  readonly seq: number;
  readonly method: ProtocolMethod;
  readonly params: {
    /** Namespace of the node or subgraph that emitted the event. */
    readonly namespace: Namespace;
    /** Milliseconds since the epoch at which the event was made. */
    readonly timestamp: number;
    /** The node the event is about (`updates`, and `messages` from a node's task). */
    readonly node?: string;
    readonly data: unknown;
  };
}

/** Status of a graph or subgraph on the `lifecycle` channel. */
export type AgentStatus = "started" | "running" | "completed" | "failed" | "interrupted";

/** What on the parent graph started a subgraph (the `cause` of a `started` lifecycle event). */
export type LifecycleCause =
  | { type: "toolCall"; tool_call_id: string; [key: string]: unknown }
  | { type: "send"; [key: string]: unknown }
  | { type: "edge"; [key: string]: unknown }
  | { type: string; [key: string]: unknown };

/** Data of a `lifecycle` event. */
export interface LifecycleData {
  event: AgentStatus;
  graph_name?: string;
  cause?: LifecycleCause;
  error?: string;
  checkpoint?: { id: string; [key: string]: unknown };
}

/** Token counts of a model call. */
export type UsageInfo = ProtocolUsage;

export type { ContentBlockDelta, ProtocolContentBlock } from "../../shared/index.js";

/** Data of a `messages` event: one step of a message's life, from `message-start` to `message-finish`. */
export type MessagesEventData = (
  | {
      event: "message-start";
      id?: string;
      role?: "ai" | "human" | "system" | "tool";
      tool_call_id?: string;
      usage?: UsageInfo;
    }
  | { event: "content-block-start"; index: number; content: ProtocolContentBlock }
  | { event: "content-block-delta"; index: number; delta: ContentBlockDelta }
  | { event: "content-block-finish"; index: number; content: ProtocolContentBlock }
  | { event: "usage"; usage: UsageInfo }
  | {
      event: "message-finish";
      reason?: string;
      usage?: UsageInfo;
      /** What the provider says of the message besides its response metadata (`ChatAnthropic`: `{ model_provider }`). */
      metadata?: Record<string, unknown>;
      responseMetadata?: Record<string, unknown>;
    }
  /** A provider's own event passed through (`ChatOpenAI`'s `stream_metadata`, `ChatAnthropic`'s `message_start`, …). */
  | { event: "provider"; provider: string; name: string; payload: unknown }
  | { event: "error"; message: string }
) & { run_id?: string };

/** Data of a `tools` event. */
export type ToolsEventData =
  | { event: "tool-started"; tool_call_id: string; tool_name: string; input?: unknown }
  | { event: "tool-output-delta"; tool_call_id: string; delta: string }
  | { event: "tool-finished"; tool_call_id: string; output?: unknown }
  | { event: "tool-error"; tool_call_id: string; message: string };

/** Data of an `updates` event: the node and what it wrote. */
export interface UpdatesEventData {
  node?: string;
  values: Record<string, unknown> | unknown[];
}

/** An interrupt a run paused at, as `run.interrupts` lists it. */
export interface InterruptPayload<TPayload = unknown> {
  interruptId: string;
  payload: TPayload;
}

/** The lightweight checkpoint description the `checkpoints` channel carries. */
export interface CheckpointEnvelope {
  id: string;
  parent_id?: string;
  step: number;
  source: string;
}

/** Status of a tool call. */
export type ToolCallStatus = "running" | "finished" | "error";

/** A tool call followed through the `tools` channel. */
export interface ToolCallStream<TName extends string = string, TInput = unknown, TOutput = unknown> {
  readonly name: TName;
  readonly callId: string;
  readonly input: TInput;
  readonly output: Promise<TOutput>;
  readonly status: Promise<ToolCallStatus>;
  readonly error: Promise<string | undefined>;
}

/**
 * The stream modes `streamEvents(…, { version: "v3" })` runs the graph with (the `debug` mode
 * repeats `checkpoints` and `tasks`; checkpoints travel as envelopes next to `values`).
 */
export const STREAM_EVENTS_V3_MODES: StreamMode[] = [
  "values",
  "updates",
  "messages",
  "tools",
  "custom",
  "tasks",
];

/** Arguments of {@link convertToProtocolEvent}. */
export interface ConvertToProtocolEventOptions {
  namespace: Namespace;
  mode: StreamMode | (string & {});
  payload: unknown;
  seq: number;
}

/** A non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for a checkpoint envelope (`{ id, step | source }`), not a full `checkpoints` stream payload. */
export function isCheckpointEnvelope(payload: unknown): payload is CheckpointEnvelope {
  if (!isRecord(payload)) return false;
  return (
    typeof payload.id === "string" &&
    ("source" in payload || typeof payload.step === "number") &&
    !("values" in payload) &&
    !("config" in payload)
  );
}

/** `{ node, values }` from an `updates` chunk `{ [node]: values }` (its first entry). */
function updatesData(payload: unknown): UpdatesEventData {
  if (typeof payload !== "object" || payload === null) return { values: {} };
  const first = Object.entries(payload)[0];
  if (first === undefined) return { values: {} };
  const [node, values] = first;
  return {
    node,
    values:
      typeof values === "object" && values !== null ? (values as Record<string, unknown>) : { value: values },
  };
}

/** The protocol form of a `tools` stream chunk (`on_tool_start` → `tool-started`, …). */
function toolsData(payload: unknown): ToolsEventData {
  if (!isRecord(payload)) {
    return { event: "tool-error", tool_call_id: "", message: "Unexpected tools payload shape" };
  }
  const toolCallId = String(payload.toolCallId ?? "");
  switch (payload.event) {
    case "on_tool_start":
      return {
        event: "tool-started",
        tool_call_id: toolCallId,
        tool_name: String(payload.name ?? "unknown"),
        input: payload.input,
      };
    case "on_tool_event":
      return {
        event: "tool-output-delta",
        tool_call_id: toolCallId,
        delta: typeof payload.data === "string" ? payload.data : JSON.stringify(payload.data ?? ""),
      };
    case "on_tool_end":
      return { event: "tool-finished", tool_call_id: toolCallId, output: payload.output };
    case "on_tool_error": {
      const error = payload.error;
      const message =
        isRecord(error) && typeof error.message === "string"
          ? error.message
          : error instanceof Error
            ? error.message
            : String(error ?? "unknown error");
      return { event: "tool-error", tool_call_id: toolCallId, message };
    }
    default:
      return {
        event: "tool-error",
        tool_call_id: "",
        message: `Unknown tool event: ${String(payload.event)}`,
      };
  }
}

/**
 * Converts one `[namespace, mode, payload]` chunk of a graph stream to protocol events (none for
 * a mode the protocol has no channel for, or a `checkpoints` payload that is not an envelope).
 * A `messages` payload `[data, metadata]` becomes `data` (with the metadata's `run_id`) and the
 * event's `node` comes from `metadata.langgraph_node`.
 */
export function convertToProtocolEvent(options: ConvertToProtocolEventOptions): ProtocolEvent[] {
  const { namespace, mode, payload, seq } = options;
  const timestamp = Date.now();
  const event = (method: string, data: unknown, node?: string): ProtocolEvent[] => [
    {
      type: "event",
      seq,
      method,
      params: node === undefined ? { namespace, timestamp, data } : { namespace, timestamp, node, data },
    },
  ];
  switch (mode) {
    case "messages": {
      if (!Array.isArray(payload) || payload.length !== 2) return event("messages", payload);
      const [data, metadata] = payload as [unknown, unknown];
      if (!isRecord(metadata)) return event("messages", payload);
      const node = typeof metadata.langgraph_node === "string" ? metadata.langgraph_node : undefined;
      const runId = typeof metadata.run_id === "string" ? metadata.run_id : undefined;
      const withRun =
        runId !== undefined && typeof data === "object" && data !== null ? { ...data, run_id: runId } : data;
      return event("messages", withRun, node === "" ? undefined : node);
    }
    case "tools":
      return event("tools", toolsData(payload));
    case "checkpoints":
      return isCheckpointEnvelope(payload) ? event("checkpoints", payload) : [];
    case "values":
    case "tasks":
      return event(mode, payload);
    case "updates": {
      const data = updatesData(payload);
      return event("updates", data, data.node);
    }
    case "custom":
      return event("custom", isRecord(payload) && "name" in payload ? payload : { payload });
    default:
      return [];
  }
}
