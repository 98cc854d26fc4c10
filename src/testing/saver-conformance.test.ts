// The saver conformance suite against MemorySaver; against deliberately broken savers, to show
// that it catches them; and the encoder bugs it found, as regression tests.
import { describe, expect, it } from "vitest";
import {
  defaultSerializer,
  EncodedCheckpointSaver,
  MemoryCheckpointStorage,
  type StorageBatch,
} from "../graph/index.js";
import {
  Annotation,
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
  MemorySaver,
  type PendingWrite,
  START,
  StateGraph,
} from "../index.js";
import { HumanMessage } from "../messages/index.js";
import type { RunnableConfig } from "../shared/index.js";
import {
  CheckpointMutatedError,
  MemorySaverAssertImmutable,
  runSaverConformance,
  SaverConformanceSkipped,
  saverConformanceCases,
} from "./index.js";

describe("saver conformance: MemorySaver", () => {
  for (const c of saverConformanceCases()) it(c.name, () => c.run(() => new MemorySaver()));
});

/** Loses every pending write. */
class DropsWritesSaver extends MemorySaver {
  override async putWrites(): Promise<void> {}
}

/** Mints integer versions, as LangGraph.js's savers do: two forks of one checkpoint share versions (langgraphjs#1812). */
class IntegerVersionsSaver extends MemorySaver {
  override getNextVersion(current: string | number | undefined): string {
    return String(typeof current === "string" ? Number.parseInt(current, 10) + 1 : (current ?? 0) + 1);
  }
}

/** "Prunes" nothing (but checks its argument). */
class NoopPruneSaver extends MemorySaver {
  override async prune(_threadIds: readonly string[], options: { keepLast: number }): Promise<void> {
    if (!(options.keepLast >= 1)) throw new Error("keepLast must be positive");
  }
}

/** Accounts storage as a saver that writes every checkpoint whole would use (quadratic). */
class WholeCheckpointSaver extends MemorySaver {
  private whole = new Map<string, number>();
  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const thread = String(config.configurable?.thread_id);
    this.whole.set(thread, (this.whole.get(thread) ?? 0) + defaultSerializer.encode(checkpoint).length);
    return super.put(config, checkpoint, metadata, newVersions);
  }
  override storedBytes(threadId?: string): number {
    return threadId === undefined ? 0 : (this.whole.get(threadId) ?? 0);
  }
}

/** Hides read failures. */
class SwallowsErrorsSaver extends MemorySaver {
  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    try {
      return await super.getTuple(config);
    } catch {
      return undefined;
    }
  }
}

/** A saver that is not one of agentgraph's (no retention, no storage to count or damage). */
class ForeignSaver extends BaseCheckpointSaver<string | number> {
  private readonly inner = new MemorySaver();
  getTuple(config: RunnableConfig) {
    return this.inner.getTuple(config);
  }
  list(config: RunnableConfig, options?: Parameters<MemorySaver["list"]>[1]) {
    return this.inner.list(config, options);
  }
  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ) {
    return this.inner.put(config, checkpoint, metadata, newVersions);
  }
  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string) {
    return this.inner.putWrites(config, writes, taskId, taskPath);
  }
  deleteThread(threadId: string) {
    return this.inner.deleteThread(threadId);
  }
  override getNextVersion(current: string | number | undefined): string {
    return this.inner.getNextVersion(current);
  }
}

async function failuresOf(saver: () => BaseCheckpointSaver): Promise<Map<string, string>> {
  const report = await runSaverConformance(saver);
  return new Map(
    report.failed.map(({ name, error }) => [name, error instanceof Error ? error.message : String(error)]),
  );
}

const named = (fragment: string) => {
  const found = saverConformanceCases().find((c) => c.name.includes(fragment));
  if (found === undefined) throw new Error(`no case named like ${fragment}`);
  return found.name;
};

describe("saver conformance catches broken savers", () => {
  it("a saver that drops pending writes", async () => {
    const failed = await failuresOf(() => new DropsWritesSaver());
    expect(failed.get(named("through pending writes"))).toMatch(/pending writes of 0 task\(s\)/);
    expect(failed.get(named("first write of a task"))).toBeDefined();
    expect(failed.has(named("through checkpoints"))).toBe(false);
  });

  it("a saver whose forks share versions (langgraphjs#1812)", async () => {
    const failed = await failuresOf(() => new IntegerVersionsSaver());
    expect(failed.get(named("keeps forks apart"))).toMatch(/same version.*unique across forks.*1812/s);
  });

  it("a saver whose prune keeps everything", async () => {
    const failed = await failuresOf(() => new NoopPruneSaver());
    expect(failed.get(named("prune keeps exactly"))).toMatch(/after prune\(keepLast 5\)/);
  });

  it("a saver whose storage grows quadratically", async () => {
    const failed = await failuresOf(() => new WholeCheckpointSaver());
    expect(failed.get(named("grow linearly"))).toMatch(/grows faster than linearly/);
  });

  it("a saver that hides damaged rows", async () => {
    const failed = await failuresOf(() => new SwallowsErrorsSaver());
    expect(failed.get(named("damaged stored rows"))).toMatch(
      /expected a CheckpointCorruptError|succeeded after/,
    );
  });

  it("reports cases a saver cannot run as skipped, and runs without a test framework", async () => {
    const report = await runSaverConformance(() => new ForeignSaver());
    expect(report.failed).toEqual([]);
    expect(report.passed).toHaveLength(9);
    expect(report.skipped.map((s) => s.name)).toEqual(
      saverConformanceCases()
        .filter((c) => c.requires.length > 0)
        .map((c) => c.name),
    );
    const boundedCase = saverConformanceCases().find((c) => c.requires.includes("storage"));
    await expect(boundedCase?.run(() => new ForeignSaver())).rejects.toBeInstanceOf(SaverConformanceSkipped);
  });
});

describe("EncodedCheckpointSaver item cache (regressions found by the suite)", () => {
  it("a failed write does not leave the cache believing its items are stored", async () => {
    const memory = new MemoryCheckpointStorage();
    let fail = true;
    const flaky = new Proxy(memory, {
      get(target, key, receiver) {
        if (key === "write") {
          return (batch: StorageBatch) => {
            if (fail && batch.items.length > 0) {
              fail = false;
              throw new Error("connection reset");
            }
            return target.write(batch);
          };
        }
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const saver = new EncodedCheckpointSaver(flaky, defaultSerializer);
    const message = new HumanMessage({ content: "hello", id: "m1" });
    const config = { configurable: { thread_id: "flaky", checkpoint_ns: "" } };
    const checkpoint = (id: string, messages: unknown[]): Checkpoint => ({
      v: 4,
      id,
      ts: new Date().toISOString(),
      channel_values: { messages },
      channel_versions: { messages: saver.getNextVersion(undefined) },
      versions_seen: {},
    });
    const first = checkpoint("1ef00000-0000-6000-8000-000000000001", []);
    await saver.put(config, first, { source: "input", step: -1, parents: {} }, first.channel_versions);
    const at = { configurable: { ...config.configurable, checkpoint_id: first.id } };
    await expect(saver.putWrites(at, [["messages", [message]] as PendingWrite], "task")).rejects.toThrow(
      "connection reset",
    );
    const second = checkpoint("1ef00000-0000-6000-8000-000000000002", [message]);
    await saver.put(at, second, { source: "loop", step: 0, parents: {} }, second.channel_versions);
    const fresh = new EncodedCheckpointSaver(memory, defaultSerializer);
    const tuple = await fresh.getTuple(config);
    expect(tuple?.checkpoint.channel_values.messages).toEqual([message]);
  });
});

describe("MemorySaverAssertImmutable", () => {
  const config = { configurable: { thread_id: "immutable", checkpoint_ns: "" } };
  const checkpoint = (id: string, list: unknown[]): Checkpoint => ({
    v: 4,
    id,
    ts: new Date().toISOString(),
    channel_values: { list },
    channel_versions: { list: `${id}.1` },
    versions_seen: {},
  });

  it("accepts checkpoints that are left alone", async () => {
    const saver = new MemorySaverAssertImmutable();
    const first = checkpoint("c1", [1]);
    await saver.put(config, first, { source: "input", step: -1, parents: {} }, first.channel_versions);
    const second = checkpoint("c2", [1, 2]);
    await saver.put(
      { configurable: { ...config.configurable, checkpoint_id: "c1" } },
      second,
      { source: "loop", step: 0, parents: {} },
      second.channel_versions,
    );
    expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ list: [1, 2] });
  });

  it("throws on the next put or getTuple once a saved checkpoint was mutated, naming it", async () => {
    const saver = new MemorySaverAssertImmutable();
    const first = checkpoint("c1", [1]);
    await saver.put(config, first, { source: "input", step: -1, parents: {} }, first.channel_versions);
    (first.channel_values.list as number[]).push(2);
    const error = await saver.getTuple(config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointMutatedError);
    expect((error as Error).message).toMatch(
      /Checkpoint c1 of thread "immutable" was modified after it was saved: channel_values\.list changed/,
    );
    const second = checkpoint("c2", [3]);
    await expect(
      saver.put(config, second, { source: "loop", step: 0, parents: {} }, second.channel_versions),
    ).rejects.toBeInstanceOf(CheckpointMutatedError);
  });

  it("catches a reducer that mutates state in place", async () => {
    const State = Annotation.Root({
      log: Annotation<string[]>({
        reducer: (a, b) => {
          a.push(...b);
          return a;
        },
        default: () => [],
      }),
    });
    const graph = new StateGraph(State)
      .addNode("one", () => ({ log: ["one"] }))
      .addNode("two", () => ({ log: ["two"] }))
      .addEdge(START, "one")
      .addEdge("one", "two")
      .compile({ checkpointer: new MemorySaverAssertImmutable() });
    const error = await graph
      .invoke({ log: ["start"] }, { configurable: { thread_id: "mutating" }, durability: "sync" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointMutatedError);
    expect((error as Error).message).toMatch(/channel_values\.log changed/);
  });
});
