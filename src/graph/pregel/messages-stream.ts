import type { CallbackHandler } from "../../shared/index.js";
import {
  CHECKPOINT_NAMESPACE_SEPARATOR,
  commandUpdateEntries,
  isCommand,
  TAG_HIDDEN,
  TAG_NOSTREAM,
  TAG_NOSTREAM_SHORT,
} from "../core/index.js";
import { graphNamespace, type StreamSink, taskCheckpointNs } from "../stream/index.js";

/** What the stream handlers read of a message (the engine never imports the message classes). */
export interface MessageLike {
  id?: string | undefined;
  content: unknown;
  getType(): string;
  tool_call_id?: string;
}

/** Duck-typed message check: the engine never imports the message classes. */
export function isMessageLike(value: unknown): value is MessageLike {
  return (
    typeof value === "object" &&
    value !== null &&
    "content" in value &&
    typeof (value as { getType?: unknown }).getType === "function"
  );
}

type Meta = [namespace: string[], metadata: Record<string, unknown>];

/** Builds the message chunk of a token reported without one (the entry points install `AIMessageChunk`). */
export type TokenChunkFactory = (token: string, id?: string) => unknown;

let tokenChunkFactory: TokenChunkFactory | undefined;

/** The chunk a token reported without one streams as (`undefined` before an entry point installed the factory). */
export function tokenChunk(token: string, id?: string): unknown {
  return tokenChunkFactory?.(token, id);
}

/**
 * @internal Sets how a token a model reports without its chunk (`runManager.handleLLMNewToken(token)`)
 * is streamed: as LangGraph.js does, as an `AIMessageChunk` holding just that token.
 */
export function setTokenChunkFactory(factory: TokenChunkFactory): void {
  tokenChunkFactory = factory;
}

/**
 * Implements the `messages` stream mode. As a callback handler it receives every model call
 * made inside a node (models resolve the node's config, which carries this handler) and
 * streams each token as `[messageChunk, metadata]`; it asks models to stream internally
 * (`lc_prefer_streaming`). Messages a node returns without a model call are streamed whole
 * when the node finishes ({@link nodeFinished}), once per message id. Without `subgraphs`, what
 * happens inside nested graphs is not streamed (as in LangGraph.js): the messages a nested graph
 * returns are streamed as its parent node's.
 */
export class MessagesStreamHandler implements CallbackHandler {
  readonly name = "MessagesStreamHandler";
  readonly lc_prefer_streaming = true;
  private readonly sink: StreamSink;
  private readonly runs = new Map<string, Meta>();
  private readonly streamed = new Set<string>();
  private readonly seen = new Set<string>();
  /** The id the chunks of each model call stream under (see {@link withStableId}). */
  private readonly stableIds = new Map<string, string>();
  /** The node metadata that runs given their own replaced, by the namespace they run under. */
  private inherited: Map<string, Record<string, unknown>> | undefined;

  private readonly subgraphs: boolean;
  /** Depth of the graph the stream was opened on (non-zero for a graph streamed inside a node). */
  private readonly baseDepth: number;

  constructor(sink: StreamSink, subgraphs: boolean, baseDepth = 0) {
    this.sink = sink;
    this.subgraphs = subgraphs;
    this.baseDepth = baseDepth;
  }

  /** True for a namespace inside a nested graph that the stream does not report. */
  private outside(ns: string[]): boolean {
    return !this.subgraphs && ns.length > this.baseDepth;
  }

  private metaOf(
    metadata: Record<string, unknown> | undefined,
    tags: string[] | undefined,
    name?: string,
  ): Meta | undefined {
    if (metadata === undefined) return undefined;
    const ns = taskCheckpointNs(metadata);
    if (ns === "") return undefined;
    const graphNs = graphNamespace(ns, metadata.langgraph_path);
    if (this.outside(graphNs)) return undefined;
    let heard = metadata;
    if (this.inherited !== undefined) {
      for (const [prefix, inherited] of this.inherited) {
        if (ns === prefix || ns.startsWith(`${prefix}${CHECKPOINT_NAMESPACE_SEPARATOR}`)) {
          heard = { ...inherited, ...heard };
        }
      }
    }
    return [graphNs, { tags: tags ?? [], name, ...heard }];
  }

  /**
   * A graph runs under `ns` inside a node with its own `metadata`, which replaced the node's:
   * LangChain.js's callbacks still hear what happens in it with the node's metadata under the
   * run's own (callback managers inherit it), so its chunks show both.
   */
  inheritMetadata(ns: string, metadata: Record<string, unknown>): void {
    this.inherited ??= new Map();
    this.inherited.set(ns, metadata);
  }

  private emit(meta: Meta, message: MessageLike, dedupe: boolean): void {
    if (dedupe && message.id !== undefined && this.seen.has(message.id)) return;
    if (message.id !== undefined) this.seen.add(message.id);
    this.sink.push(meta[0], "messages", [message, meta[1]]);
  }

  handleChatModelStart(
    _llm: unknown,
    _messages: unknown[][],
    runId: string,
    _parentRunId?: string,
    _extra?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
    name?: string,
  ): void {
    if (tags?.includes(TAG_NOSTREAM) || tags?.includes(TAG_NOSTREAM_SHORT)) return;
    const meta = this.metaOf(metadata, tags, name);
    if (meta !== undefined) this.runs.set(runId, meta);
  }

  /**
   * Gives a model call's message the id all its chunks stream under, as LangGraph.js does: the
   * first id the call streamed, else `run-<runId>`, so a model that yields chunks without ids
   * still streams one message a consumer can group by id.
   */
  private withStableId(message: MessageLike, runId: string): MessageLike {
    const fallback = `run-${runId}`;
    let id = message.id;
    if (id == null || id === fallback) id = this.stableIds.get(runId) ?? id ?? fallback;
    if (!this.stableIds.has(runId)) this.stableIds.set(runId, id);
    if (message.id !== id) message.id = id;
    return message;
  }

  /** The stream metadata of model call `runId`, while it runs and streams. */
  protected runMeta(runId: string): Meta | undefined {
    return this.runs.get(runId);
  }

  /**
   * Model call `runId` streams elsewhere, its message under `id`: the call's answer is not
   * streamed again when it ends, nor a node's output with that id.
   */
  protected streamedElsewhere(runId: string, id: string): void {
    this.streamed.add(runId);
    if (!this.stableIds.has(runId)) this.stableIds.set(runId, id);
    this.seen.add(id);
  }

  handleLLMNewToken(
    token: string,
    _idx: unknown,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    fields?: { chunk?: { message: unknown } },
  ): void {
    const meta = this.runs.get(runId);
    if (meta === undefined) return;
    // a model that reports its tokens without their chunks streams each token as a chunk of its own
    let message = fields?.chunk?.message;
    if (!isMessageLike(message)) {
      message = tokenChunk(token);
      if (!isMessageLike(message)) return;
    }
    this.streamed.add(runId);
    this.emit(meta, this.withStableId(message, runId), false);
  }

  handleLLMEnd(output: { generations: { message: unknown }[][] }, runId: string): void {
    const meta = this.runs.get(runId);
    this.runs.delete(runId);
    if (meta === undefined) return;
    const message = output.generations?.[0]?.[0]?.message;
    // a streamed call's answer is not marked seen: only its chunks' ids are, so a node returning
    // it under another id (tokens reported without their chunks) streams it whole, as LangGraph.js does
    if (this.streamed.delete(runId)) {
      this.stableIds.delete(runId);
      return;
    }
    if (isMessageLike(message)) this.emit(meta, this.withStableId(message, runId), true);
    this.stableIds.delete(runId);
  }

  handleLLMError(_error: unknown, runId: string): void {
    this.runs.delete(runId);
    this.streamed.delete(runId);
    this.stableIds.delete(runId);
  }

  /** Streams a message pushed with `pushMessage`: whole, with the task's metadata, even when seen before. */
  pushed(metadata: Record<string, unknown> | undefined, message: unknown): void {
    if (!isMessageLike(message) || metadata === undefined) return;
    const ns = taskCheckpointNs(metadata);
    if (ns === "") return;
    const graphNs = graphNamespace(ns, metadata.langgraph_path);
    if (this.outside(graphNs)) return;
    this.emit([graphNs, metadata], message, false);
  }

  /** Marks the messages a task starts with as seen, so returning them again does not re-stream them. */
  taskStarted(input: unknown, metadata: Record<string, unknown> | undefined): void {
    if (typeof input !== "object" || input === null) return;
    if (!this.subgraphs && metadata !== undefined) {
      // a nested graph's task not streamed: its input messages are not seen yet
      const ns = taskCheckpointNs(metadata);
      if (ns !== "" && this.outside(graphNamespace(ns, metadata.langgraph_path))) return;
    }
    for (const value of Object.values(input)) {
      if (isMessageLike(value) && value.id !== undefined) this.seen.add(value.id);
      else if (Array.isArray(value)) {
        for (const item of value) if (isMessageLike(item) && item.id !== undefined) this.seen.add(item.id);
      }
    }
  }

  /**
   * Streams the messages a node returned that no model call streamed already. A returned
   * message without an id gets LangGraph.js's stream id (which the state then keeps too):
   * `run-<runId>-tool-<toolCallId>` for a tool message, else `run-<runId>-out-<n>`, `n` its
   * place among the messages returned. `stepTag: false` leaves out the step's tag (a nested
   * graph's run, which LangGraph.js reports without it).
   */
  nodeFinished(
    metadata: Record<string, unknown> | undefined,
    tags: string[] | undefined,
    name: string,
    output: unknown,
    runId: string,
    stepTag = true,
  ): void {
    if (tags?.includes(TAG_HIDDEN)) return;
    // as LangGraph.js reports a node's own messages: its step's tag first, then the run's tags
    const step = metadata?.langgraph_step;
    const withStep = stepTag && typeof step === "number" ? [`graph:step:${step}`, ...(tags ?? [])] : tags;
    const meta = this.metaOf(metadata, withStep, name);
    if (meta === undefined) return;
    let outputIndex = 0;
    const visit = (value: unknown): void => {
      if (isCommand(value)) {
        for (const [, v] of commandUpdateEntries(value)) visit(v);
      } else if (isMessageLike(value)) {
        // only a message that came with an id can have been streamed already: one named here is
        // streamed even when its name is taken (two answers to calls sharing an id), as there
        const named = value.id != null;
        if (!named) {
          value.id =
            value.getType() === "tool"
              ? `run-${runId}-tool-${value.tool_call_id}`
              : `run-${runId}-out-${outputIndex}`;
        }
        outputIndex += 1;
        this.emit(meta, value, named);
      } else if (Array.isArray(value)) {
        for (const item of value) visit(item);
      } else if (
        typeof value === "object" &&
        value !== null &&
        Object.getPrototypeOf(value) === Object.prototype
      ) {
        for (const v of Object.values(value)) if (isMessageLike(v) || Array.isArray(v)) visit(v);
      }
    };
    visit(output);
  }
}
