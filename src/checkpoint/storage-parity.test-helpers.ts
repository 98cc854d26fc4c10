/**
 * Differential test of a `CheckpointStorage` against `MemoryCheckpointStorage`, the reference
 * semantics: random batches over small key spaces (so rows conflict: checkpoints replace, blobs
 * and items are kept, writes keep or replace by index), then every read compared.
 */
import { expect } from "vitest";
import {
  type BlobRow,
  type CheckpointRow,
  type CheckpointStorage,
  type ItemRow,
  MemoryCheckpointStorage,
  type StorageBatch,
  type WriteRow,
} from "../graph/index.js";

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const byJson = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();

/** Runs `rounds` random batches on both storages, comparing every read after each. */
export async function checkStorageParity(
  storage: CheckpointStorage,
  prefix: string,
  rounds = 60,
  seed = 42,
): Promise<void> {
  const memory = new MemoryCheckpointStorage();
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const threads = [`${prefix}-t1`, `${prefix}-t2`, `${prefix}-t3`];
  const namespaces = ["", "child:1", "child:1|grand:2"];
  const ids = Array.from(
    { length: 12 },
    (_, i) => `1ef0000${i.toString(16)}-0000-6000-8000-00000000000${i % 10}`,
  );
  const channels = ["messages", "count", "__pregel_tasks"];
  const versions = Array.from(
    { length: 8 },
    (_, i) => `${(i + 1).toString(36).padStart(10, "0")}.abcdef${i}`,
  );
  const hashes = Array.from({ length: 10 }, (_, i) => `hash-${i}-ABCdef_-`);
  const text = () => JSON.stringify({ n: random(), s: "é😀\u0000".repeat(Math.floor(random() * 3)) });

  for (let round = 0; round < rounds; round++) {
    const batch: StorageBatch = { checkpoints: [], blobs: [], items: [], writes: [] };
    const n = 1 + Math.floor(random() * 6);
    for (let i = 0; i < n; i++) {
      const threadId = pick(threads);
      const ns = pick(namespaces);
      const idIndex = Math.floor(random() * ids.length);
      const roll = random();
      if (roll < 0.3) {
        const checkpoint: CheckpointRow = {
          threadId,
          ns,
          id: ids[idIndex] as string,
          parentId: idIndex === 0 || random() < 0.1 ? null : (ids[idIndex - 1] as string),
          createdAt: 1_000_000 + Math.floor(random() * 1000),
          record: text(),
          metadata: text(),
          depth: random() < 0.3 ? 0 : 1 + Math.floor(random() * 4),
        };
        batch.checkpoints.push(checkpoint);
      } else if (roll < 0.55) {
        const vIndex = Math.floor(random() * versions.length);
        const splice = vIndex > 0 && random() < 0.6;
        const blob: BlobRow = {
          threadId,
          ns,
          channel: pick(channels),
          version: versions[vIndex] as string,
          kind: splice ? "splice" : pick(["value", "empty", "list"] as const),
          data: random() < 0.1 ? null : text(),
          prev: splice ? (versions[Math.floor(random() * vIndex)] as string) : null,
          depth: splice ? 1 : 0,
        };
        batch.blobs.push(blob);
      } else if (roll < 0.7) {
        const item: ItemRow = { threadId, hash: pick(hashes), data: text() };
        batch.items.push(item);
      } else {
        const write: WriteRow = {
          threadId,
          ns,
          checkpointId: ids[idIndex] as string,
          taskId: pick(["task-a", "task-b"]),
          idx: pick([-4, -3, -1, 0, 1, 2]),
          channel: pick(channels),
          kind: pick(["value", "list"] as const),
          data: text(),
          taskPath: pick(["", "~a", "~b"]),
        };
        batch.writes.push(write);
      }
    }
    const op = random();
    if (op < 0.05) {
      const threadId = pick(threads);
      memory.deleteThread(threadId);
      await storage.deleteThread(threadId);
    } else if (op < 0.1) {
      const threadId = pick(threads);
      const only: StorageBatch = {
        checkpoints: batch.checkpoints.filter((r) => r.threadId === threadId),
        blobs: batch.blobs.filter((r) => r.threadId === threadId),
        items: batch.items.filter((r) => r.threadId === threadId),
        writes: batch.writes.filter((r) => r.threadId === threadId),
      };
      memory.replaceThread(threadId, only);
      await storage.replaceThread(threadId, only);
    } else {
      memory.write(batch);
      await storage.write(batch);
    }

    // Every read, compared.
    for (const threadId of threads) {
      expect(byJson(await storage.items(threadId, new Set(hashes))), `items after round ${round}`).toEqual(
        byJson(memory.items(threadId, new Set(hashes))),
      );
      for (const ns of namespaces) {
        const where = `thread ${threadId} ns "${ns}" after round ${round}`;
        expect(await storage.checkpointChain(threadId, ns, undefined), `latest chain, ${where}`).toEqual(
          memory.checkpointChain(threadId, ns, undefined),
        );
        for (const id of ids.filter((_, i) => i % 3 === round % 3)) {
          expect(await storage.checkpointChain(threadId, ns, id), `chain of ${id}, ${where}`).toEqual(
            memory.checkpointChain(threadId, ns, id),
          );
          expect(byJson(await storage.writes(threadId, ns, id)), `writes of ${id}, ${where}`).toEqual(
            byJson(memory.writes(threadId, ns, id)),
          );
        }
        const wanted = channels.flatMap((channel) => versions.map((version) => [channel, version] as const));
        expect(byJson(await storage.blobs(threadId, ns, wanted)), `blobs, ${where}`).toEqual(
          byJson(memory.blobs(threadId, ns, wanted)),
        );
      }
    }
    for (const query of [
      {},
      { threadId: threads[0] },
      { threadId: threads[1], ns: "" },
      { ns: "child:1" },
      { threadId: threads[2], beforeId: ids[6] },
      { beforeId: ids[4] },
    ]) {
      // Same rows; the order across threads and namespaces is the SQL savers' own (newest id first,
      // ties by thread and namespace, as LangGraph.js's SQL savers list), where MemoryCheckpointStorage
      // groups by thread and namespace (as LangGraph.js's MemorySaver lists).
      const normalize = (rows: { threadId: string; ns: string; id: string; metadata: string }[]) =>
        [...rows].sort((a, b) =>
          a.id !== b.id
            ? a.id < b.id
              ? 1
              : -1
            : `${a.threadId}\u0000${a.ns}`.localeCompare(`${b.threadId}\u0000${b.ns}`),
        );
      const mine = (await storage.listCheckpoints(query)).filter((r) => r.threadId.startsWith(prefix));
      expect(
        mine.map((r) => r.id),
        `listCheckpoints(${JSON.stringify(query)}) order`,
      ).toEqual(normalize(memory.listCheckpoints(query)).map((r) => r.id));
      expect(normalize(mine), `listCheckpoints(${JSON.stringify(query)}) after round ${round}`).toEqual(
        normalize(memory.listCheckpoints(query)),
      );
    }
    // A thread holding only items or blobs (never produced by the encoder: they come with a
    // checkpoint or a write) is not reported by the SQL storages, which look at checkpoints and writes.
    const hasRows = (threadId: string) =>
      memory.listCheckpoints({ threadId }).length > 0 ||
      namespaces.some((ns) => ids.some((id) => memory.writes(threadId, ns, id).length > 0));
    for (const cutoff of [0, 1_000_500, 2_000_000]) {
      const mine = (await storage.staleThreads(cutoff)).filter((t) => t.startsWith(prefix)).sort();
      expect(mine, `staleThreads(${cutoff}) after round ${round}`).toEqual(
        memory.staleThreads(cutoff).filter(hasRows).sort(),
      );
    }
  }
}
