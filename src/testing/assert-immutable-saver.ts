import {
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
  defaultSerializer,
  isSyncSerializer,
  MemorySaver,
  type SerializerProtocol,
  type SyncSerializerProtocol,
} from "../graph/index.js";
import { AgentGraphError, type RunnableConfig } from "../shared/index.js";

/**
 * A checkpoint object was changed after it was given to `put`: the code that saved it (a node,
 * a reducer, the engine) mutates state in place instead of returning new values.
 *
 * @example
 * ```ts
 * try {
 *   await graph.invoke(input, config);
 * } catch (e) {
 *   if (e instanceof CheckpointMutatedError) console.error(e.checkpointId, e.threadId);
 * }
 * ```
 */
export class CheckpointMutatedError extends AgentGraphError {
  static override readonly brandName: string = "CheckpointMutatedError";
  readonly threadId: string;
  readonly checkpointId: string;
  constructor(threadId: string, ns: string, checkpointId: string, detail: string) {
    super(
      `Checkpoint ${checkpointId} of thread "${threadId}"${ns === "" ? "" : ` (namespace "${ns}")`} was modified after it was saved: ${detail}. Something mutates state in place — a node or reducer changing an array or object it received (push, splice, property assignment). Return new values instead (e.g. [...list, item], { ...obj, key: value }).`,
      { code: "CHECKPOINT_MUTATED" },
    );
    this.threadId = threadId;
    this.checkpointId = checkpointId;
  }
}

interface Remembered {
  checkpoint: Checkpoint;
  encoded: string;
  threadId: string;
  ns: string;
}

/** The first top-level field whose encoding differs (for the message). */
function changedField(serde: SyncSerializerProtocol, checkpoint: Checkpoint, encoded: string): string {
  const before = serde.decode(encoded) as Checkpoint;
  for (const key of ["channel_values", "channel_versions", "versions_seen"] as const) {
    const was = before[key] as Record<string, unknown>;
    const now = checkpoint[key] as Record<string, unknown>;
    const names = new Set([...Object.keys(was), ...Object.keys(now)]);
    for (const name of names) {
      if (serde.encode(was[name]) !== serde.encode(now[name])) return `${key}.${name} changed`;
    }
  }
  return "its id, ts or format changed";
}

/**
 * A `MemorySaver` for tests that remembers each checkpoint object given to `put` with its
 * encoding at that moment, and on the next `put` or `getTuple` throws a
 * {@link CheckpointMutatedError} naming the checkpoint if one of that thread's objects was changed since.
 * Savers keep what `put` received; in-place mutation by the engine or by user reducers would make
 * what is saved depend on timing (with `durability: "async"` the write happens later), so the
 * engine's tests run on this saver. Mirrors LangGraph.js's test utility of the same name.
 *
 * @example
 * ```ts
 * import { MemorySaverAssertImmutable } from "agentgraph/testing";
 *
 * const graph = builder.compile({ checkpointer: new MemorySaverAssertImmutable() });
 * await graph.invoke(input, { configurable: { thread_id: "1" } }); // throws if a checkpoint was mutated
 * ```
 */
export class MemorySaverAssertImmutable extends MemorySaver {
  private readonly remembered: Remembered[] = [];
  /** Encodes checkpoints to compare them (the saver's serializer when it is synchronous). */
  private readonly encoder: SyncSerializerProtocol;

  constructor(serde?: SerializerProtocol) {
    super(serde);
    const chosen = serde ?? defaultSerializer;
    this.encoder = isSyncSerializer(chosen) ? chosen : defaultSerializer;
  }

  /**
   * Throws a {@link CheckpointMutatedError} if a checkpoint object given to `put` (for one thread,
   * or any) was changed since.
   *
   * @example
   * ```ts
   * await graph.invoke(input, config);
   * saver.assertUnchanged(); // also checked on every put and getTuple
   * ```
   */
  assertUnchanged(threadId?: string): void {
    for (const entry of this.remembered) {
      if (threadId !== undefined && entry.threadId !== threadId) continue;
      if (this.encoder.encode(entry.checkpoint) !== entry.encoded) {
        throw new CheckpointMutatedError(
          entry.threadId,
          entry.ns,
          entry.checkpoint.id,
          changedField(this.encoder, entry.checkpoint, entry.encoded),
        );
      }
    }
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    this.assertUnchanged(String(config.configurable?.thread_id ?? ""));
    const encoded = this.encoder.encode(checkpoint);
    const saved = await super.put(config, checkpoint, metadata, newVersions);
    this.remembered.push({
      checkpoint,
      encoded,
      threadId: String(config.configurable?.thread_id ?? ""),
      ns: String(config.configurable?.checkpoint_ns ?? ""),
    });
    return saved;
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    this.assertUnchanged(String(config.configurable?.thread_id ?? ""));
    return super.getTuple(config);
  }

  override async deleteThread(threadId: string): Promise<void> {
    for (let i = this.remembered.length - 1; i >= 0; i--) {
      if (this.remembered[i]?.threadId === String(threadId)) this.remembered.splice(i, 1);
    }
    await super.deleteThread(threadId);
  }
}
