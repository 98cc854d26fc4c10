import { InvalidArgumentError } from "../../shared/index.js";
import {
  EncodedCheckpointSaver,
  type SaverRetentionOptions,
  type ValueCodec,
} from "./encoding/encoded-saver.js";
import { MemoryCheckpointStorage } from "./encoding/memory-storage.js";
import { defaultSerializer, isSyncSerializer, type SerializerProtocol } from "./serde/index.js";

/** The synchronous codec of a serializer (savers encode on the hot path without awaiting). */
export function codecOf(serde: SerializerProtocol | undefined): ValueCodec {
  const chosen = serde ?? defaultSerializer;
  if (!isSyncSerializer(chosen)) {
    throw new InvalidArgumentError(
      "agentgraph's savers need a serializer with synchronous encode(value) and decode(text) methods (a SyncSerializerProtocol, such as JsonPlusSerializer); the one given only has dumpsTyped/loadsTyped.",
    );
  }
  return chosen;
}

/**
 * Keeps checkpoints in this process's memory: for tests, notebooks and short-lived apps. Stored
 * incrementally (only what each step changed), so long threads stay small; everything is held as
 * encoded text, so mutating live objects never alters what was saved.
 *
 * @example
 * ```ts
 * const graph = builder.compile({ checkpointer: new MemorySaver() });
 * await graph.invoke(input, { configurable: { thread_id: "1" } });
 * ```
 */
export class MemorySaver extends EncodedCheckpointSaver {
  private readonly memory: MemoryCheckpointStorage;
  /** Ids are checked as LangGraph.js's MemorySaver checks them (`"__proto__"` is refused, …). */
  protected override readonly checksIds: boolean = true;
  /** As LangGraph.js's `MemorySaver`: `getTuple` with a `checkpoint_id` answers with the config it got. */
  protected override readonly returnsRequestedConfig: boolean = true;
  /** As LangGraph.js's `MemorySaver`: `parentConfig` only when there is a parent, last. */
  protected override readonly tupleLayout: "memory" | "sql" | "sqlite" = "memory";
  /** As LangGraph.js's `MemorySaver`: only the checkpoint format's fields are saved. */
  protected override readonly keepsExtraFields: boolean = false;
  /** As LangGraph.js's `MemorySaver`: a pre-v4 checkpoint always gets a tasks channel. */
  protected override readonly migratesWithoutSends: boolean = true;

  constructor(serde?: SerializerProtocol, options: SaverRetentionOptions = {}) {
    const memory = new MemoryCheckpointStorage();
    super(memory, codecOf(serde), options);
    this.memory = memory;
  }

  /** Bytes of encoded data held (for one thread, or all). */
  storedBytes(threadId?: string): number {
    return this.memory.storedBytes(threadId);
  }
}
