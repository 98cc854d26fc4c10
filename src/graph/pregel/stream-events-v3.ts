import { copyWith, HEARS_EVERY_CHUNK } from "../../shared/index.js";
/**
 * `streamEvents(input, { version: "v3" })`: the graph runs with the stream modes of
 * {@link STREAM_EVENTS_V3_MODES} and `subgraphs: true`; its chunks become protocol events of a
 * {@link GraphRunStream}. Model calls stream on the `messages` channel as protocol message
 * events (`message-start`, `content-block-*`, `message-finish`) under the namespace of the
 * node task that made them, tool calls on the `tools` channel, and each `values` snapshot
 * comes after a `checkpoints` envelope `{ id, parent_id?, step, source }`.
 */
import { uuid6 } from "../checkpoint/index.js";
import { CHECKPOINT_NAMESPACE_SEPARATOR, INTERRUPT } from "../core/index.js";
import {
  type CheckpointEnvelope,
  createGraphRunStream,
  type GraphRunStream,
  type InferExtensions,
  IterableReadableStream,
  type MessagesEventData,
  type Namespace,
  type ProtocolContentBlock,
  type ProtocolEvent,
  STREAM_EVENTS_V3_MODES,
  type StreamMode,
  StreamSink,
  type StreamTransformer,
  ToolsStreamHandler,
  taskCheckpointNs,
  type UsageInfo,
} from "../stream/index.js";
import { isMessageLike, type MessageLike, MessagesStreamHandler } from "./messages-stream.js";

/** Option key (internal) asking `Pregel.stream` for the protocol message and tool handlers. */
export const PROTOCOL_STREAM: unique symbol = Symbol("agentgraph.streamEvents.v3") as never;

/** A factory of a {@link StreamTransformer}, as `transformers` and `compile({ transformers })` take. */
export type StreamTransformerFactory = () => StreamTransformer<unknown>;

/** Options of `streamEvents(input, { version: "v3", … })` besides the run options. */
export interface StreamEventsV3Options<
  TTransformers extends ReadonlyArray<StreamTransformerFactory> = ReadonlyArray<StreamTransformerFactory>,
> {
  version: "v3";
  /** Transformers for this run (after the graph's compile-time ones). */
  transformers?: TTransformers;
  /** `"text/event-stream"`: the events as Server-Sent Events bytes instead of a {@link GraphRunStream}. */
  encoding?: "text/event-stream";
}

/** The graph side of a v3 run. */
export interface V3Source {
  readonly streamTransformers: ReadonlyArray<StreamTransformerFactory>;
  readonly persisted: boolean;
  stream(input: unknown, options: Record<string | symbol, unknown>): Promise<AsyncIterable<unknown>>;
}

/** Runs `graph` for `streamEvents(…, { version: "v3" })`. */
export async function streamEventsV3<TValues, TTransformers extends ReadonlyArray<StreamTransformerFactory>>(
  graph: V3Source,
  input: unknown,
  options: StreamEventsV3Options<TTransformers> & Record<string, unknown>,
): Promise<GraphRunStream<TValues, InferExtensions<TTransformers>> | IterableReadableStream<Uint8Array>> {
  const { version: _version, encoding, transformers, signal, ...runOptions } = options;
  const controller = new AbortController();
  const signals = [controller.signal, ...(signal instanceof AbortSignal ? [signal] : [])];
  const source = graph.stream(input, {
    ...runOptions,
    signal: signals.length === 1 ? controller.signal : AbortSignal.any(signals),
    streamMode: [...STREAM_EVENTS_V3_MODES, "checkpoints"],
    subgraphs: true,
    [PROTOCOL_STREAM]: true,
  });
  const chunks: AsyncIterable<unknown> = {
    async *[Symbol.asyncIterator]() {
      yield* withCheckpointEnvelopes(await source, graph.persisted);
    },
  };
  const run = createGraphRunStream<TValues, InferExtensions<TTransformers>>(
    chunks,
    [...graph.streamTransformers, ...(transformers ?? [])],
    { abortController: controller },
  );
  if (encoding === "text/event-stream") return toEventStream(run, controller);
  return run;
}

/** The run's events as Server-Sent Events: `event: <method>[|<namespace…>]`, `data: <JSON data>`. */
function toEventStream(
  run: AsyncIterable<ProtocolEvent>,
  controller: AbortController,
): IterableReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const stream = new IterableReadableStream<Uint8Array>({
    async start(out) {
      try {
        for await (const event of run) {
          const ns = event.params.namespace;
          const name = ns.length > 0 ? `${event.method}|${ns.join("|")}` : event.method;
          out.enqueue(encoder.encode(`event: ${name}\ndata: ${JSON.stringify(event.params.data ?? {})}\n\n`));
        }
      } catch (error) {
        out.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify({ message: String(error) })}\n\n`));
      } finally {
        out.close();
      }
    },
    cancel(reason) {
      controller.abort(reason);
    },
  });
  return stream;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameNamespace(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

/** The envelope of a `checkpoints` stream payload (`undefined` for the input checkpoint). */
function envelopeOf(payload: unknown): CheckpointEnvelope | undefined {
  if (!isRecord(payload) || !isRecord(payload.metadata) || !isRecord(payload.config)) return undefined;
  const configurable = isRecord(payload.config.configurable) ? payload.config.configurable : {};
  const id = configurable.checkpoint_id;
  if (typeof id !== "string" || payload.metadata.source === "input") return undefined;
  const parent = isRecord(payload.parentConfig) ? payload.parentConfig.configurable : undefined;
  const parentId = isRecord(parent) ? parent.checkpoint_id : undefined;
  return {
    id,
    ...(typeof parentId === "string" && parentId !== "" ? { parent_id: parentId } : {}),
    step: typeof payload.metadata.step === "number" ? payload.metadata.step : 0,
    source: String(payload.metadata.source ?? "loop"),
  };
}

/**
 * Puts a `checkpoints` envelope before each `values` chunk (not an interrupt's). With a
 * checkpointer the envelope describes the checkpoint the `checkpoints` stream reports right
 * after the snapshot (the `values` chunk waits for it); without one there is no checkpoint to
 * describe, so the envelope has a fresh id and the superstep's number, and no `parent_id`.
 */
async function* withCheckpointEnvelopes(
  source: AsyncIterable<unknown>,
  persisted: boolean,
): AsyncGenerator<unknown> {
  let held: { ns: Namespace; payload: unknown } | undefined;
  // Without a checkpointer, supersteps are counted from the `tasks` events: a task start after a
  // task result begins a new one. A graph whose first snapshot comes before any task ran had a
  // hidden `__start__` superstep (step 0); otherwise (an entrypoint) its first task runs in step 0.
  const steps = new Map<string, { started: number; sawResult: boolean; offset: number | undefined }>();
  const stepOf = (ns: Namespace) => {
    const key = ns.join("\0");
    let entry = steps.get(key);
    if (entry === undefined) {
      entry = { started: 0, sawResult: false, offset: undefined };
      steps.set(key, entry);
    }
    return entry;
  };
  for await (const chunk of source) {
    if (!Array.isArray(chunk) || chunk.length !== 3) continue;
    const [ns, mode, payload] = chunk as [Namespace, StreamMode, unknown];
    if (mode === "checkpoints") {
      if (held !== undefined) {
        const envelope = sameNamespace(held.ns, ns) ? envelopeOf(payload) : undefined;
        if (envelope !== undefined) yield [held.ns, "checkpoints", envelope];
        yield [held.ns, "values", held.payload];
        held = undefined;
      }
      continue;
    }
    if (held !== undefined) {
      yield [held.ns, "values", held.payload];
      held = undefined;
    }
    if (mode === "tasks" && isRecord(payload)) {
      if (payload.error instanceof Error) {
        // a failed task's error as LangGraph.js sends it: its name and message
        yield [ns, mode, { ...payload, error: { message: payload.error.message, name: payload.error.name } }];
        stepOf(ns).sawResult = true;
        continue;
      }
      const entry = stepOf(ns);
      if ("result" in payload) {
        entry.sawResult = true;
      } else if (entry.started === 0 || entry.sawResult) {
        entry.offset ??= -1;
        entry.started += 1;
        entry.sawResult = false;
      }
    }
    if (mode === "values" && !(isRecord(payload) && INTERRUPT in payload)) {
      if (persisted) {
        held = { ns, payload };
        continue;
      }
      const entry = stepOf(ns);
      entry.offset ??= 0;
      const envelope: CheckpointEnvelope = {
        id: uuid6(-1),
        step: entry.started + entry.offset,
        source: "loop",
      };
      yield [ns, "checkpoints", envelope];
    }
    yield chunk;
  }
  if (held !== undefined) yield [held.ns, "values", held.payload];
}

/** The namespace of the node task a callback's metadata belongs to (`[]` outside a node). */
function taskNamespace(metadata: Record<string, unknown> | undefined): Namespace {
  const ns = taskCheckpointNs(metadata);
  return ns !== "" ? ns.split(CHECKPOINT_NAMESPACE_SEPARATOR) : [];
}

/** What the v3 handlers read of a message, beyond what every stream handler reads. */
interface V3Message extends MessageLike {
  tool_call_chunks?: { id?: string; name?: string; args?: string; index?: number }[];
  usage_metadata?: UsageInfo;
  response_metadata?: Record<string, unknown>;
  additional_kwargs?: Record<string, unknown>;
}

const isV3Message = isMessageLike as (value: unknown) => value is V3Message;

type Meta = Record<string, unknown>;

/** The tool messages without an id in a node's output (its update, a list of them, or a Command's update). */
function toolMessagesWithoutId(output: unknown): V3Message[] {
  const found: V3Message[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 3) return;
    if (isV3Message(value)) {
      if (value.getType() === "tool" && value.id == null) found.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (isRecord(value)) {
      for (const item of Object.values(value)) visit(item, depth + 1);
    }
  };
  visit(output, 0);
  return found;
}

interface OpenBlock {
  kind: "text" | "reasoning" | "tool";
  text: string;
  id?: string;
  name?: string;
}

interface StreamedMessage {
  ns: Namespace;
  meta: Meta;
  blocks: Map<number, OpenBlock>;
  /** Block index of each tool call chunk index. */
  toolBlocks: Map<number, number>;
  textBlock?: number;
  reasoningBlock?: number;
  usage?: UsageInfo;
}

/** Where the relay sink sends what the messages handler emits, and in which context. */
type EmitContext =
  | { kind: "token"; runId: string }
  | { kind: "whole"; runId: string | undefined; skipTools: boolean }
  | undefined;

/** Hands the `messages` chunks of {@link ProtocolMessagesHandler}'s base class back to it. */
class RelaySink extends StreamSink {
  readonly target: StreamSink;
  handler: ProtocolMessagesHandler | undefined;

  constructor(target: StreamSink) {
    super([...target.modes], true, true, () => {});
    this.target = target;
  }

  override wants(mode: StreamMode, depth: number): boolean {
    return this.target.wants(mode, depth);
  }

  override push(namespace: readonly string[], mode: StreamMode, payload: unknown): void {
    if (mode !== "messages" || this.handler === undefined || !Array.isArray(payload)) {
      this.target.push(namespace, mode, payload);
      return;
    }
    const [message, meta] = payload as [unknown, Meta];
    this.handler.relay(message, meta);
  }
}

function startBlockOf(block: ProtocolContentBlock): ProtocolContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: "" };
    case "reasoning":
      return { type: "reasoning", reasoning: "" };
    case "tool_call":
    case "tool_call_chunk":
      return {
        type: "tool_call_chunk",
        ...(block.id != null ? { id: block.id } : {}),
        ...(block.name != null ? { name: block.name } : {}),
        args: "",
      };
    default:
      return block;
  }
}

function deltaOf(block: ProtocolContentBlock, index: number): MessagesEventData | undefined {
  switch (block.type) {
    case "text": {
      const text = typeof block.text === "string" ? block.text : "";
      return text === ""
        ? undefined
        : { event: "content-block-delta", index, delta: { type: "text-delta", text } };
    }
    case "reasoning": {
      const reasoning = typeof block.reasoning === "string" ? block.reasoning : "";
      return reasoning === ""
        ? undefined
        : { event: "content-block-delta", index, delta: { type: "reasoning-delta", reasoning } };
    }
    case "tool_call_chunk":
      return {
        event: "content-block-delta",
        index,
        delta: { type: "block-delta", fields: { ...block, type: "tool_call_chunk" } },
      };
    default:
      return undefined;
  }
}

/** The running total of a streamed message's usage after a chunk's (the first report's details kept). */
function addUsage(total: UsageInfo, more: UsageInfo): UsageInfo {
  return {
    ...total,
    input_tokens: (total.input_tokens ?? 0) + (more.input_tokens ?? 0),
    output_tokens: (total.output_tokens ?? 0) + (more.output_tokens ?? 0),
    total_tokens: (total.total_tokens ?? 0) + (more.total_tokens ?? 0),
  };
}

/** The parts of a streamed message's `message-finish` event that depend on the model. */
interface StreamedFinish {
  reason: string | undefined;
  metadata?: Record<string, unknown>;
  responseMetadata?: Record<string, unknown>;
}

/** The protocol's finish reason for an OpenAI `finish_reason`. */
function openAIFinishReason(reason: unknown): string {
  switch (reason) {
    case "length":
    case "max_tokens":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "content_filter";
    default:
      return "stop";
  }
}

/** The protocol's finish reason for an Anthropic `stop_reason`. */
function anthropicFinishReason(reason: unknown): string {
  if (reason === "tool_use") return "tool_use";
  if (reason === "max_tokens") return "length";
  return "stop";
}

/**
 * How a streamed answer's `message-finish` ends, read from the joined answer as LangChain.js's
 * provider stream converters write it: an OpenAI answer (`model_provider: "openai"`) maps its
 * `finish_reason` (`tool_calls` is `tool_use`) and carries the model name, fingerprint, service
 * tier and raw reason as response metadata; an Anthropic one maps its `stop_reason` and carries
 * `{ model_provider }` as metadata and no response metadata; any other model's ends with `stop`.
 */
function streamedFinishOf(
  final: V3Message | undefined,
  info: Record<string, unknown> | undefined,
): StreamedFinish {
  const metadata = final !== undefined && isRecord(final.response_metadata) ? final.response_metadata : {};
  if (metadata.model_provider === "openai") {
    const fields = info === undefined ? metadata : { ...info, ...metadata };
    if (fields.finish_reason == null) return { reason: undefined };
    return {
      reason: openAIFinishReason(fields.finish_reason),
      responseMetadata: {
        model_provider: "openai",
        model_name: fields.model_name,
        system_fingerprint: fields.system_fingerprint,
        service_tier: fields.service_tier,
        finish_reason: fields.finish_reason,
      },
    };
  }
  if (metadata.model_provider === "anthropic") {
    const extra = final !== undefined && isRecord(final.additional_kwargs) ? final.additional_kwargs : {};
    return {
      reason: anthropicFinishReason(extra.stop_reason ?? metadata.stop_reason),
      metadata: { model_provider: "anthropic" },
      responseMetadata: {},
    };
  }
  return { reason: "stop" };
}

/**
 * The `messages` stream of a v3 run: the base handler's bookkeeping (which model calls stream,
 * which messages a node returns were seen already, `pushMessage`), with each message emitted as
 * protocol events under its node task's namespace.
 */
export class ProtocolMessagesHandler extends MessagesStreamHandler {
  /** Every chunk a model streams becomes protocol events, reported by the model or not (see `HEARS_EVERY_CHUNK`). */
  readonly [HEARS_EVERY_CHUNK] = true;
  private readonly out: StreamSink;
  private context: EmitContext;
  private readonly streams = new Map<string, StreamedMessage>();

  constructor(sink: StreamSink, baseDepth = 0) {
    const relay = new RelaySink(sink);
    super(relay, true, baseDepth);
    relay.handler = this;
    this.out = sink;
  }

  override handleLLMNewToken(
    token: string,
    idx: unknown,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    fields?: { chunk?: { message: unknown } },
  ): void {
    this.within({ kind: "token", runId }, () =>
      super.handleLLMNewToken(token, idx, runId, parentRunId, tags, fields),
    );
  }

  override handleLLMEnd(
    output: { generations: { message: unknown; generationInfo?: Record<string, unknown> }[][] },
    runId: string,
  ): void {
    this.within({ kind: "whole", runId, skipTools: false }, () => super.handleLLMEnd(output, runId));
    const streamed = this.streams.get(runId);
    if (streamed === undefined) return;
    this.streams.delete(runId);
    const generation = output.generations?.[0]?.[0];
    const final = generation?.message;
    // a model whose chunks report no usage may still have some on its answer
    if (streamed.usage === undefined && isV3Message(final) && final.usage_metadata != null)
      streamed.usage = final.usage_metadata;
    this.finish(streamed, runId, isV3Message(final) ? final : undefined, generation?.generationInfo);
  }

  override handleLLMError(error: unknown, runId: string): void {
    super.handleLLMError(error, runId);
    const streamed = this.streams.get(runId);
    if (streamed === undefined) return;
    this.streams.delete(runId);
    const message = error instanceof Error ? error.message : String(error);
    this.send(streamed.ns, streamed.meta, runId, { event: "error", message });
  }

  override pushed(metadata: Record<string, unknown> | undefined, message: unknown): void {
    this.within({ kind: "whole", runId: undefined, skipTools: false }, () => super.pushed(metadata, message));
  }

  override nodeFinished(
    metadata: Record<string, unknown> | undefined,
    tags: string[] | undefined,
    name: string,
    output: unknown,
    runId: string,
    stepTag?: boolean,
  ): void {
    // tool messages a node returns are not streamed, so they keep no stream id: the state's
    // reducer gives those without one an id, as in LangGraph.js
    const toolMessages = toolMessagesWithoutId(output);
    try {
      this.within({ kind: "whole", runId, skipTools: true }, () =>
        super.nodeFinished(metadata, tags, name, output, runId, stepTag),
      );
    } finally {
      for (const message of toolMessages) message.id = undefined;
    }
  }

  /** @internal A `[message, metadata]` chunk of the base handler. */
  relay(message: unknown, meta: Meta): void {
    const context = this.context;
    if (!isV3Message(message) || context === undefined) return;
    if (context.kind === "token") this.token(context.runId, message, meta);
    else if (!(context.skipTools && message.getType() === "tool")) this.whole(context.runId, message, meta);
  }

  /** Runs `call` (a base-class method) with the relay sink's emit context set to `context`. */
  private within(context: EmitContext, call: () => void): void {
    this.context = context;
    try {
      call();
    } finally {
      this.context = undefined;
    }
  }

  private send(ns: Namespace, meta: Meta, runId: string | undefined, data: MessagesEventData): void {
    this.out.push(ns, "messages", [data, runId === undefined ? meta : copyWith(meta, "run_id", runId)]);
  }

  /** A message emitted in one piece (start, its content blocks, finish). */
  private whole(runId: string | undefined, message: V3Message, meta: Meta): void {
    const ns = taskNamespace(meta);
    const type = message.getType();
    const role = type === "human" || type === "system" || type === "tool" ? type : "ai";
    this.send(ns, meta, runId, {
      event: "message-start",
      ...(message.id != null ? { id: message.id } : {}),
      ...(role !== "ai" ? { role } : {}),
      ...(role === "tool" && typeof message.tool_call_id === "string"
        ? { tool_call_id: message.tool_call_id }
        : {}),
    });
    const blocks: ProtocolContentBlock[] = Array.isArray(message.content)
      ? (message.content as unknown[]).filter(isRecord).map((b) => ({ ...b, type: String(b.type) }))
      : typeof message.content === "string" && message.content !== ""
        ? [{ type: "text", text: message.content }]
        : [];
    blocks.forEach((block, offset) => {
      const index = typeof block.index === "number" ? block.index : offset;
      this.send(ns, meta, runId, { event: "content-block-start", index, content: startBlockOf(block) });
      const delta = deltaOf(block, index);
      if (delta !== undefined) this.send(ns, meta, runId, delta);
      this.send(ns, meta, runId, { event: "content-block-finish", index, content: block });
    });
    this.send(ns, meta, runId, {
      event: "message-finish",
      ...(message.usage_metadata != null ? { usage: message.usage_metadata } : {}),
      ...(isRecord(message.response_metadata) ? { responseMetadata: message.response_metadata } : {}),
    });
  }

  /** A streamed chunk of model call `runId`. */
  private token(runId: string, chunk: V3Message, meta: Meta): void {
    let streamed = this.streams.get(runId);
    // the first chunk's usage goes on `message-start`, later ones' make running totals, as
    // LangChain.js's chunk converter (and `@langchain/anthropic`'s stream) report them
    let usage = chunk.usage_metadata ?? undefined;
    if (streamed === undefined) {
      streamed = { ns: taskNamespace(meta), meta, blocks: new Map(), toolBlocks: new Map() };
      this.streams.set(runId, streamed);
      this.send(streamed.ns, meta, runId, {
        event: "message-start",
        id: chunk.id ?? `run-${runId}`,
        ...(usage !== undefined ? { usage } : {}),
      });
      if (usage !== undefined) streamed.usage = usage;
      usage = undefined;
    }
    const state = streamed;
    const open = (
      kind: OpenBlock["kind"],
      content: ProtocolContentBlock,
      extra?: Partial<OpenBlock>,
    ): number => {
      const index = state.blocks.size;
      state.blocks.set(index, { kind, text: "", ...extra });
      this.send(state.ns, meta, runId, { event: "content-block-start", index, content });
      return index;
    };
    const addText = (text: string): void => {
      if (text === "") return;
      state.textBlock ??= open("text", { type: "text", text: "" });
      const block = state.blocks.get(state.textBlock) as OpenBlock;
      block.text += text;
      this.send(state.ns, meta, runId, {
        event: "content-block-delta",
        index: state.textBlock,
        delta: { type: "text-delta", text },
      });
    };
    const addReasoning = (text: string): void => {
      if (text === "") return;
      state.reasoningBlock ??= open("reasoning", { type: "reasoning", reasoning: "" });
      const block = state.blocks.get(state.reasoningBlock) as OpenBlock;
      block.text += text;
      this.send(state.ns, meta, runId, {
        event: "content-block-delta",
        index: state.reasoningBlock,
        delta: { type: "reasoning-delta", reasoning: text },
      });
    };
    if (typeof chunk.content === "string") {
      addText(chunk.content);
    } else if (Array.isArray(chunk.content)) {
      for (const part of chunk.content as unknown[]) {
        if (!isRecord(part)) continue;
        if (part.type === "text" && typeof part.text === "string") addText(part.text);
        else if (part.type === "reasoning" && typeof part.reasoning === "string")
          addReasoning(part.reasoning);
        else if (part.type === "thinking" && typeof part.thinking === "string") addReasoning(part.thinking);
      }
    }
    for (const call of chunk.tool_call_chunks ?? []) {
      const key = call.index ?? 0;
      let index = state.toolBlocks.get(key);
      if (index === undefined) {
        index = open(
          "tool",
          {
            type: "tool_call_chunk",
            ...(call.id != null ? { id: call.id } : {}),
            ...(call.name != null ? { name: call.name } : {}),
            args: "",
            // the chunk's own index, as LangChain.js's provider streams start the block
            ...(call.index != null ? { index: call.index } : {}),
          },
          { ...(call.id != null ? { id: call.id } : {}), ...(call.name != null ? { name: call.name } : {}) },
        );
        state.toolBlocks.set(key, index);
      }
      const block = state.blocks.get(index) as OpenBlock;
      if (call.id != null) block.id ??= call.id;
      if (call.name != null) block.name ??= call.name;
      const args = call.args ?? "";
      if (args !== "") {
        block.text += args;
        this.send(state.ns, meta, runId, {
          event: "content-block-delta",
          index,
          delta: { type: "tool-call-delta", args },
        });
      }
    }
    if (usage !== undefined) {
      state.usage = state.usage === undefined ? usage : addUsage(state.usage, usage);
      this.send(state.ns, meta, runId, { event: "usage", usage: state.usage });
    }
  }

  /**
   * Closes the blocks of a streamed message, then the message. `final` is the joined answer and
   * `info` its generation's info (where an invoke streamed for this handler leaves OpenAI's
   * `finish_reason` and `model_name`), when the call ended.
   */
  private finish(
    streamed: StreamedMessage,
    runId: string,
    final?: V3Message,
    info?: Record<string, unknown>,
  ): void {
    for (const [index, block] of [...streamed.blocks].sort(([a], [b]) => a - b)) {
      let content: ProtocolContentBlock;
      if (block.kind === "text") content = { type: "text", text: block.text };
      else if (block.kind === "reasoning") content = { type: "reasoning", reasoning: block.text };
      else {
        let args: unknown = {};
        try {
          args = block.text === "" ? {} : JSON.parse(block.text);
        } catch {
          args = {};
        }
        content = {
          type: "tool_call",
          ...(block.id !== undefined ? { id: block.id } : {}),
          name: block.name ?? "",
          args: isRecord(args) ? args : {},
        };
      }
      this.send(streamed.ns, streamed.meta, runId, { event: "content-block-finish", index, content });
    }
    const { reason, metadata, responseMetadata } = streamedFinishOf(final, info);
    this.send(streamed.ns, streamed.meta, runId, {
      event: "message-finish",
      ...(reason !== undefined ? { reason } : {}),
      ...(streamed.usage !== undefined ? { usage: streamed.usage } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
      ...(responseMetadata !== undefined ? { responseMetadata } : {}),
    });
  }
}

/** The `tools` stream of a v3 run: tool calls under the namespace of the node task that made them. */
export class ProtocolToolsHandler extends ToolsStreamHandler {
  override readonly name: string = "ProtocolToolsHandler";

  protected override namespaceOf(metadata: Record<string, unknown>): Namespace {
    return taskNamespace(metadata);
  }
}
