import { InvalidArgumentError } from "../../shared/index.js";
import { STREAM_MODES, type StreamMode } from "./types.js";

/** Receives formatted chunks (the stream's consumer). */
export type ChunkConsumer = (chunk: unknown) => void;

/**
 * Where a run reports what happens. One sink serves a top-level `stream()` call; nested
 * graphs report through a child of it, which prefixes their namespace. The sink knows which
 * modes are wanted, so the engine builds a payload only when somebody reads it.
 */
export class StreamSink {
  readonly modes: ReadonlySet<StreamMode>;
  readonly subgraphs: boolean;
  private readonly multi: boolean;
  private readonly consume: ChunkConsumer;
  /** Namespace depth of the graph whose `stream()` this is (0 unless it was called inside a node). */
  private readonly baseDepth: number;

  constructor(
    modes: readonly StreamMode[],
    subgraphs: boolean,
    multi: boolean,
    consume: ChunkConsumer,
    baseDepth = 0,
  ) {
    this.modes = new Set(modes);
    this.subgraphs = subgraphs;
    this.multi = multi;
    this.consume = consume;
    this.baseDepth = baseDepth;
  }

  /** Whether a graph at namespace depth `depth` (0 for the root) should report `mode`. */
  wants(mode: StreamMode, depth: number): boolean {
    if (!this.modes.has(mode)) return false;
    return depth <= this.baseDepth || this.subgraphs || mode === "messages" || mode === "custom";
  }

  /**
   * Whether the `debug` events of hidden tasks (the `__start__` node) are pushed here: only for
   * sinks that report to chain callbacks, which hear those runs, and the stream `streamEvents`
   * reads (set {@link hiddenTasks}); no stream a user reads shows them.
   */
  hearsHidden(): boolean {
    return this.hiddenTasks;
  }

  /** Set by `streamEvents`, whose events show the hidden `__start__` node run (see {@link hearsHidden}). */
  hiddenTasks = false;

  /** Reports one payload of `mode` from the graph at `namespace` (`[]` for the root). */
  push(namespace: readonly string[], mode: StreamMode, payload: unknown): void {
    const ns = this.baseDepth === 0 ? namespace : namespace.slice(this.baseDepth);
    if (this.subgraphs) {
      this.consume(this.multi ? [ns, mode, payload] : [ns, payload]);
    } else {
      this.consume(this.multi ? [mode, payload] : payload);
    }
  }
}

/** Validates and normalises the `streamMode` option. */
export function normalizeStreamModes(
  streamMode: StreamMode | readonly StreamMode[] | undefined,
  fallback: StreamMode | readonly StreamMode[],
): { modes: StreamMode[]; multi: boolean } {
  // the graph's default modes stream bare chunks, even several of them (as in LangGraph.js)
  if (streamMode === undefined)
    return { modes: Array.isArray(fallback) ? [...fallback] : [fallback as StreamMode], multi: false };
  const list = Array.isArray(streamMode)
    ? [...(streamMode as readonly StreamMode[])]
    : [streamMode as StreamMode];
  for (const mode of list) {
    if (!STREAM_MODES.includes(mode)) {
      throw new InvalidArgumentError(
        `Unknown stream mode ${JSON.stringify(mode)}. Use one or several of: ${STREAM_MODES.join(", ")}.`,
      );
    }
  }
  return { modes: [...new Set(list)], multi: Array.isArray(streamMode) };
}
