/**
 * The incremental encoding against a model of what a saver must return: a checkpoint read back
 * holds, for each channel in its versions, the value stored when that version was put (in
 * `newVersions`), whatever mix of small values (kept in records), large values, lists (splices)
 * and empty channels, over chains long enough to cross full records, and with forks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SaverBatchOp } from "../base-saver.js";
import { codecOf } from "../memory-saver.js";
import type { Checkpoint } from "../types.js";
import { EncodedCheckpointSaver } from "./encoded-saver.js";
import { MemoryCheckpointStorage } from "./memory-storage.js";

const CHANNELS = ["flag", "doc", "list", "maybe"] as const;

const changeArb = fc.oneof(
  fc.record({
    kind: fc.constant("small" as const),
    value: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)),
  }),
  fc.record({ kind: fc.constant("large" as const), value: fc.string({ minLength: 130, maxLength: 200 }) }),
  fc.record({ kind: fc.constant("append" as const), value: fc.string({ maxLength: 20 }) }),
  fc.record({ kind: fc.constant("empty" as const) }),
);

/**
 * One step: at most one channel changes (so some stay unchanged across the full records that
 * come every 64 checkpoints), usually on the last checkpoint, now and then on an earlier one.
 */
const stepArb = fc.record({
  /** Which earlier checkpoint to branch from (an index into those put so far); mostly none. */
  forkFrom: fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat() }),
  changes: fc.array(fc.tuple(fc.constantFrom(...CHANNELS), changeArb), { maxLength: 1 }),
  /** Saved together with the next steps in one putBatch (as async durability does). */
  batched: fc.boolean(),
});

interface Stored {
  id: string;
  checkpoint: Checkpoint;
  /** What a read must return as channel_values. */
  expected: Record<string, unknown>;
}

// each property on a storage that keeps short lists inline (PostgreSQL's) and on one that does not
describe.each([false, true])(
  "EncodedCheckpointSaver against a model (short lists inline: %s)",
  (inlineShortLists) => {
    it("reads back every checkpoint of long, forked histories exactly", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 220, size: "max" }), async (steps) => {
          const storage = new MemoryCheckpointStorage({ inlineShortLists });
          const saver = new EncodedCheckpointSaver(storage, codecOf(undefined));
          const threadId = "t";
          const stored: Stored[] = [];
          /** The value each (channel, version) was stored with (absent: the channel was empty). */
          const values = new Map<string, { value: unknown } | undefined>();
          let queued: SaverBatchOp[] = [];
          for (const step of steps) {
            const parent =
              stored.length === 0
                ? undefined
                : step.forkFrom === undefined
                  ? stored[stored.length - 1]
                  : stored[step.forkFrom % stored.length];
            const versions: Record<string, string | number> = { ...parent?.checkpoint.channel_versions };
            const channelValues: Record<string, unknown> = { ...parent?.checkpoint.channel_values };
            const newVersions: Record<string, string | number> = {};
            let max: string | undefined;
            for (const v of Object.values(versions))
              if (max === undefined || String(v) > max) max = String(v);
            for (const [channel, change] of step.changes) {
              const version = saver.getNextVersion(max);
              versions[channel] = version;
              newVersions[channel] = version;
              if (change.kind === "empty") delete channelValues[channel];
              else if (change.kind === "append") {
                const before = Array.isArray(channelValues[channel])
                  ? (channelValues[channel] as unknown[])
                  : [];
                channelValues[channel] = [...before, change.value];
              } else channelValues[channel] = change.value;
              values.set(
                `${channel}@${version}`,
                Object.hasOwn(channelValues, channel) ? { value: channelValues[channel] } : undefined,
              );
            }
            const id = `1ef${String(stored.length).padStart(5, "0")}-0000-6000-8000-000000000000`;
            const checkpoint: Checkpoint = {
              v: 4,
              id,
              ts: new Date(0).toISOString(),
              channel_values: channelValues,
              channel_versions: versions,
              versions_seen: {},
            };
            queued.push({
              kind: "checkpoint",
              config: { configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: parent?.id } },
              checkpoint,
              metadata: { source: "loop", step: stored.length, parents: {} },
              newVersions,
            });
            if (!step.batched) {
              if (queued.length === 1) {
                const [op] = queued as [SaverBatchOp & { kind: "checkpoint" }];
                await saver.put(op.config, op.checkpoint, op.metadata, op.newVersions);
              } else await saver.putBatch(queued);
              queued = [];
            }
            const expected: Record<string, unknown> = {};
            for (const [channel, version] of Object.entries(versions)) {
              const found = values.get(`${channel}@${version}`);
              if (found !== undefined) expected[channel] = found.value;
            }
            stored.push({ id, checkpoint, expected });
          }
          if (queued.length > 0) await saver.putBatch(queued);
          // read through a fresh saver on the same storage too: nothing may come from caches
          const fresh = new EncodedCheckpointSaver(storage, codecOf(undefined));
          for (const reader of [saver, fresh]) {
            for (const { id, expected } of stored) {
              const tuple = await reader.getTuple({
                configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: id },
              });
              expect(tuple?.checkpoint.channel_values).toEqual(expected);
            }
          }
        }),
        { numRuns: 60 },
      );
    });

    it("keeps apart the elements of branches that grow one list state in one batch", async () => {
      // a list state extended by one branch (S2) is still the state another branch (S3) grows
      // from; S4 then holds an element of S2 where S3 has its own
      const storage = new MemoryCheckpointStorage({ inlineShortLists });
      const saver = new EncodedCheckpointSaver(storage, codecOf(undefined));
      const [a, b, c] = ["a", "b", "c"].map((text) => ({ text: text.repeat(40) })) as [
        object,
        object,
        object,
      ];
      const lists: Record<string, object[]> = { S1: [a], S2: [a, b], S3: [a, c], S4: [a, b], S5: [a] };
      const parents: Record<string, string | undefined> = {
        S1: undefined,
        S2: "S1",
        S3: "S1",
        S4: "S3",
        // the list S2 grew from, unchanged
        S5: "S1",
      };
      const idOf = (name: string) => `1ef0000${name.slice(1)}-0000-6000-8000-000000000000`;
      const ops: SaverBatchOp[] = Object.keys(lists).map((name, step) => {
        const version = `1${step + 1}.0000000${step}`;
        return {
          kind: "checkpoint",
          config: {
            configurable: {
              thread_id: "t",
              checkpoint_ns: "",
              checkpoint_id: parents[name] === undefined ? undefined : idOf(parents[name] as string),
            },
          },
          checkpoint: {
            v: 4,
            id: idOf(name),
            ts: new Date(0).toISOString(),
            channel_values: { list: lists[name] },
            channel_versions: { list: version },
            versions_seen: {},
          },
          metadata: { source: "loop", step, parents: {} },
          newVersions: { list: version },
        };
      });
      await saver.putBatch(ops);
      const fresh = new EncodedCheckpointSaver(storage, codecOf(undefined));
      for (const [name, list] of Object.entries(lists)) {
        const tuple = await fresh.getTuple({ configurable: { thread_id: "t", checkpoint_id: idOf(name) } });
        expect(tuple?.checkpoint.channel_values.list, name).toEqual(list);
      }
    });

    it("stores lists of objects edited anywhere, continuing from what it read back", async () => {
      const editArb = fc.oneof(
        fc.record({ op: fc.constant("append" as const), n: fc.integer({ min: 1, max: 3 }) }),
        fc.record({ op: fc.constant("replace" as const), at: fc.nat() }),
        fc.record({ op: fc.constant("remove" as const), at: fc.nat() }),
        fc.record({ op: fc.constant("insert" as const), at: fc.nat() }),
        fc.record({ op: fc.constant("swap" as const), at: fc.nat(), with: fc.nat() }),
        fc.record({ op: fc.constant("same" as const) }),
        // continue from the list as a saver reads it back (other objects, same content)
        fc.record({ op: fc.constant("reload" as const), fresh: fc.boolean() }),
        fc.record({ op: fc.constant("otherThread" as const) }),
        // branch from an earlier checkpoint, with the very objects its list held
        fc.record({ op: fc.constant("fork" as const), from: fc.nat() }),
        // the list's own array changed in place after it was saved (a node that mutates state)
        fc.record({ op: fc.constant("inPlace" as const), at: fc.nat(), push: fc.boolean() }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(editArb, fc.boolean()), { minLength: 1, maxLength: 120 }),
          async (edits) => {
            const storage = new MemoryCheckpointStorage({ inlineShortLists });
            let saver = new EncodedCheckpointSaver(storage, codecOf(undefined));
            let made = 0;
            const item = () => ({ id: `m${made}`, text: `message ${made++}` });
            let list: { id: string; text: string }[] = [];
            let parentId: string | undefined;
            let version: string | undefined;
            const expected: { id: string; list: unknown[]; objects: { id: string; text: string }[] }[] = [];
            let queued: SaverBatchOp[] = [];
            const flush = async () => {
              if (queued.length > 0) await saver.putBatch(queued);
              queued = [];
            };
            for (const [edit, batched] of edits) {
              if (edit.op === "fork" && expected.length > 0) {
                const from = expected[edit.from % expected.length] as (typeof expected)[number];
                parentId = from.id;
                list = from.objects;
                continue;
              }
              let next = [...list];
              if (edit.op === "inPlace" && list.length > 0) {
                // saved already (a batch holds the array it was given), then changed where it is
                await flush();
                next = list;
                if (edit.push) next.push(item());
                else next[edit.at % next.length] = item();
              }
              const at = (n: number) => (next.length === 0 ? 0 : n % next.length);
              if (edit.op === "append") for (let i = 0; i < edit.n; i++) next.push(item());
              else if (edit.op === "replace" && next.length > 0) next[at(edit.at)] = item();
              else if (edit.op === "remove" && next.length > 0) next.splice(at(edit.at), 1);
              else if (edit.op === "insert") next.splice(at(edit.at), 0, item());
              else if (edit.op === "swap" && next.length > 1) {
                const a = at(edit.at);
                const b = at(edit.with);
                [next[a], next[b]] = [next[b] as (typeof next)[number], next[a] as (typeof next)[number]];
              } else if (edit.op === "reload" && parentId !== undefined) {
                await flush();
                if (edit.fresh) saver = new EncodedCheckpointSaver(storage, codecOf(undefined));
                const tuple = await saver.getTuple({
                  configurable: { thread_id: "t", checkpoint_id: parentId },
                });
                list = [...((tuple?.checkpoint.channel_values.list as typeof list | undefined) ?? [])];
                continue;
              } else if (edit.op === "otherThread") {
                // another thread's save in between: the cache lets go of this thread's elements
                await flush();
                await saver.put(
                  { configurable: { thread_id: `other-${made}` } },
                  {
                    v: 4,
                    id: `1ef${String(made++).padStart(5, "0")}-0000-6000-8000-00000000000a`,
                    ts: new Date(0).toISOString(),
                    channel_values: { list: [item()] },
                    channel_versions: { list: saver.getNextVersion(undefined) },
                    versions_seen: {},
                  },
                  { source: "loop", step: 0, parents: {} },
                  { list: "1" },
                );
                continue;
              }
              version = saver.getNextVersion(version);
              const id = `1ef${String(expected.length).padStart(5, "0")}-0000-6000-8000-000000000000`;
              queued.push({
                kind: "checkpoint",
                config: { configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: parentId } },
                checkpoint: {
                  v: 4,
                  id,
                  ts: new Date(0).toISOString(),
                  channel_values: { list: next },
                  channel_versions: { list: version },
                  versions_seen: {},
                },
                metadata: { source: "loop", step: expected.length, parents: {} },
                newVersions: { list: version },
              });
              if (!batched) await flush();
              expected.push({ id, list: structuredClone(next), objects: [...next] });
              list = next;
              parentId = id;
            }
            await flush();
            const fresh = new EncodedCheckpointSaver(storage, codecOf(undefined));
            for (const { id, list: want } of expected) {
              const tuple = await fresh.getTuple({ configurable: { thread_id: "t", checkpoint_id: id } });
              expect(tuple?.checkpoint.channel_values.list).toEqual(want);
            }
          },
        ),
        { numRuns: 80 },
      );
    });
  },
);
