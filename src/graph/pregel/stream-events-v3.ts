import { copyWith } from "../../shared/index.js";
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

/** Whether `ns` is `prefix` or a namespace under it. */
function hasPrefix(ns: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= ns.length && prefix.every((segment, i) => segment === ns[i]);
}

/** The envelope of a `checkpoints` stream payload. */
function envelopeOf(payload: unknown): CheckpointEnvelope | undefined {
  if (!isRecord(payload) || !isRecord(payload.metadata) || !isRecord(payload.config)) return undefined;
  const configurable = isRecord(payload.config.configurable) ? payload.config.configurable : {};
  const id = configurable.checkpoint_id;
  if (typeof id !== "string") return undefined;
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
 * after the snapshot (the `values` chunk waits for it); without one (or in a nested graph that
 * saves nothing, `checkpointer: false`) there is no checkpoint to describe, so the envelope has a
 * fresh id and the superstep's number, and no `parent_id`.
 */
export async function* withCheckpointEnvelopes(
  source: AsyncIterable<unknown>,
  persisted: boolean,
): AsyncGenerator<unknown> {
  // Each namespace's last snapshot, waiting for its checkpoint (in the order they came): nested
  // graphs running side by side (Sends to a subgraph) can report both snapshots, then one
  // checkpoint, a task of that graph and the other checkpoint, so each snapshot waits for the
  // checkpoint of its own namespace, and is let go without one only by a chunk of its own graph,
  // of a graph it runs in or of one running in it (or the end).
  const held = new Map<string, { ns: Namespace; payload: unknown }>();
  /** The namespaces a checkpoint was streamed for: the others (an unsaved nested graph) are described as without a checkpointer. */
  const saved = new Set<string>();
  function* unpaired(ns: Namespace, payload: unknown): Generator<unknown> {
    if (!saved.has(ns.join("\0"))) yield [ns, "checkpoints", freshEnvelope(ns)];
    yield [ns, "values", payload];
  }
  function* release(from?: Namespace): Generator<unknown> {
    for (const [key, { ns, payload }] of [...held]) {
      if (from !== undefined && !hasPrefix(ns, from) && !hasPrefix(from, ns)) continue;
      held.delete(key);
      yield* unpaired(ns, payload);
    }
  }
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
  /** The envelope of a snapshot no checkpoint describes: a fresh id and the superstep's number. */
  const freshEnvelope = (ns: Namespace): CheckpointEnvelope => {
    const entry = stepOf(ns);
    entry.offset ??= 0;
    return { id: uuid6(-1), step: entry.started + entry.offset, source: "loop" };
  };
  for await (const chunk of source) {
    if (!Array.isArray(chunk) || chunk.length !== 3) continue;
    const [ns, mode, payload] = chunk as [Namespace, StreamMode, unknown];
    const key = ns.join("\0");
    if (mode === "checkpoints") {
      saved.add(key);
      const snapshot = held.get(key);
      if (snapshot !== undefined) {
        held.delete(key);
        const envelope = envelopeOf(payload);
        if (envelope !== undefined) yield [snapshot.ns, "checkpoints", envelope];
        yield [snapshot.ns, "values", snapshot.payload];
      }
      continue;
    }
    const snapshot = mode === "values" && persisted && !(isRecord(payload) && INTERRUPT in payload);
    if (snapshot) {
      // a second snapshot of a namespace before its checkpoint: the first one has none
      const earlier = held.get(key);
      if (earlier !== undefined) {
        held.delete(key);
        yield* unpaired(earlier.ns, earlier.payload);
      }
      held.set(key, { ns, payload });
      continue;
    }
    yield* release(ns);
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
    if (mode === "values" && !(isRecord(payload) && INTERRUPT in payload))
      yield [ns, "checkpoints", freshEnvelope(ns)];
    yield chunk;
  }
  yield* release();
}

/** The namespace of the node task a callback's metadata belongs to (`[]` outside a node). */
function taskNamespace(metadata: Record<string, unknown> | undefined): Namespace {
  const ns = taskCheckpointNs(metadata);
  return ns !== "" ? ns.split(CHECKPOINT_NAMESPACE_SEPARATOR) : [];
}

/** What the v3 handlers read of a message, beyond what every stream handler reads. */
interface V3Message extends MessageLike {
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

/** Where the relay sink sends what the messages handler emits, and in which context. */
type EmitContext = { runId: string | undefined; skipTools: boolean } | undefined;

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

/**
 * The `messages` stream of a v3 run, under the namespace of the node task that made each
 * message: a model call that streams sends its own protocol events (the model makes them, so
 * how a provider's message finishes is the provider's business; this handler only gives a
 * `message-start` without an id `run-<runId>`); any other message (a model call that did not
 * stream, one a node returns, `pushMessage`) is emitted whole when it is known, with the base
 * handler's bookkeeping of which messages were seen already.
 */
export class ProtocolMessagesHandler extends MessagesStreamHandler {
  /** Model calls stream to this handler as protocol events (`handleChatModelStreamEvent`). */
  readonly lc_prefer_chat_model_stream_events = true;
  private readonly out: StreamSink;
  private context: EmitContext;

  constructor(sink: StreamSink, baseDepth = 0) {
    const relay = new RelaySink(sink);
    super(relay, true, baseDepth);
    relay.handler = this;
    this.out = sink;
  }

  /** Tokens are not streamed: a model call streams as protocol events, or its answer whole when it ends. */
  override handleLLMNewToken(): void {}

  /** One protocol event of a model call, under the namespace of the node task that made it. */
  handleChatModelStreamEvent(event: unknown, runId: string): void {
    const meta = this.runMeta(runId)?.[1];
    if (meta === undefined || !isRecord(event) || typeof event.event !== "string") return;
    let data = event as MessagesEventData;
    if (data.event === "message-start") {
      const id = data.id ?? `run-${runId}`;
      this.streamedElsewhere(runId, id);
      if (data.id == null) data = { ...data, id };
    }
    this.send(taskNamespace(meta), meta, runId, data);
  }

  override handleLLMEnd(
    output: { generations: { message: unknown; generationInfo?: Record<string, unknown> }[][] },
    runId: string,
  ): void {
    this.within({ runId, skipTools: false }, () => super.handleLLMEnd(output, runId));
  }

  override pushed(metadata: Record<string, unknown> | undefined, message: unknown): void {
    this.within({ runId: undefined, skipTools: false }, () => super.pushed(metadata, message));
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
      this.within({ runId, skipTools: true }, () =>
        super.nodeFinished(metadata, tags, name, output, runId, stepTag),
      );
    } finally {
      for (const message of toolMessages) message.id = undefined;
    }
  }

  /** @internal A `[message, metadata]` chunk of the base handler: a whole message. */
  relay(message: unknown, meta: Meta): void {
    const context = this.context;
    if (!isV3Message(message) || context === undefined) return;
    if (!(context.skipTools && message.getType() === "tool")) this.whole(context.runId, message, meta);
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
}

/** The `tools` stream of a v3 run: tool calls under the namespace of the node task that made them. */
export class ProtocolToolsHandler extends ToolsStreamHandler {
  override readonly name: string = "ProtocolToolsHandler";

  protected override namespaceOf(metadata: Record<string, unknown>): Namespace {
    return taskNamespace(metadata);
  }
}
