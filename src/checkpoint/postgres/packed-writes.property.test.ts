/**
 * Writes packed into their checkpoint's row: unpacking gives back what was packed, a batch's
 * writes are split as the table would keep them, and a damaged text is a corrupt checkpoint.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CheckpointCorruptError, type CheckpointRow, type WriteRow } from "../../graph/index.js";
import { packWrites, splitWrites, unpackWrites } from "./packed-writes.js";

const text = fc.string({ unit: "binary", maxLength: 12 });

const write = (checkpointId: fc.Arbitrary<string>, idx: fc.Arbitrary<number>) =>
  fc.record<WriteRow>({
    threadId: fc.constantFrom("t", "u"),
    ns: fc.constantFrom("", "sub:1"),
    checkpointId,
    taskId: fc.constantFrom("task-a", "task-b", "task-c"),
    idx,
    channel: text,
    kind: fc.constantFrom("value", "list"),
    data: text,
    taskPath: fc.constantFrom("", "~__pregel_pull, model", "~__pregel_push, 0"),
  });

const checkpoint = (threadId: string, ns: string, id: string): CheckpointRow => ({
  threadId,
  ns,
  id,
  parentId: null,
  createdAt: 0,
  record: "{}",
  metadata: "{}",
  depth: 0,
});

const key = (w: WriteRow) => `${w.threadId}|${w.ns}|${w.checkpointId}|${w.taskId}|${w.idx}`;

describe("packed writes", () => {
  it("unpacking gives back the packed writes of each task, in order", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom("task-a", "task-b", "task-c"), { minLength: 1 }),
        fc.array(fc.array(write(fc.constant("c1"), fc.nat(9)), { minLength: 1, maxLength: 4 }), {
          minLength: 3,
          maxLength: 3,
        }),
        (taskIds, groups) => {
          const tasks = taskIds.map((taskId, i) =>
            (groups[i] ?? []).map((w) => ({ ...w, threadId: "t", ns: "", taskId, taskPath: `path ${i}` })),
          );
          expect(unpackWrites(packWrites(tasks), "t", "", "c1")).toEqual(tasks.flat());
        },
      ),
      { numRuns: 500 },
    );
  });

  it("packs a batch's ordinary writes of its checkpoints, first per task and idx, and leaves the rest as rows", () => {
    const ids = fc.constantFrom("c1", "c2", "c3");
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.constantFrom("t", "u"), fc.constantFrom("", "sub:1"), ids), {
          selector: (k) => k.join("|"),
          maxLength: 4,
        }),
        fc.array(write(ids, fc.integer({ min: -4, max: 3 })), { maxLength: 24 }),
        (keys, writes) => {
          const checkpoints = keys.map(([t, ns, id]) => checkpoint(t, ns, id));
          const { packed, ordinary, control } = splitWrites(checkpoints, writes);
          expect(packed).toHaveLength(checkpoints.length);
          const inBatch = (w: WriteRow) =>
            keys.some(([t, ns, id]) => t === w.threadId && ns === w.ns && id === w.checkpointId);
          expect(control).toEqual(writes.filter((w) => w.idx < 0));
          expect(ordinary).toEqual(writes.filter((w) => w.idx >= 0 && !inBatch(w)));
          // what the packs hold is the first write of each key, grouped by task in order of first write
          const unpacked = checkpoints.flatMap((row, i) =>
            packed[i] === null ? [] : unpackWrites(packed[i] as string, row.threadId, row.ns, row.id),
          );
          const firsts = new Map<string, WriteRow>();
          for (const w of writes) if (w.idx >= 0 && inBatch(w) && !firsts.has(key(w))) firsts.set(key(w), w);
          expect(new Map(unpacked.map((w) => [key(w), w]))).toEqual(firsts);
          expect(unpacked).toHaveLength(firsts.size);
          checkpoints.forEach((row, i) => {
            const has = writes.some(
              (w) =>
                w.idx >= 0 && w.threadId === row.threadId && w.ns === row.ns && w.checkpointId === row.id,
            );
            expect(packed[i] !== null).toBe(has);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a checkpoint stored again appends its packs, and each line reads on its own", () => {
    const a: WriteRow = {
      threadId: "t",
      ns: "",
      checkpointId: "c1",
      taskId: "a",
      idx: 0,
      channel: "messages",
      kind: "list",
      data: '["ref"]',
      taskPath: "~__pregel_pull, model",
    };
    const b: WriteRow = { ...a, taskId: "b", kind: "value", data: "null", channel: "line\nbreak" };
    const joined = `${packWrites([[a]])}\n${packWrites([[b]])}`;
    expect(unpackWrites(joined, "t", "", "c1")).toEqual([a, b]);
  });

  it("reports a damaged pack as a corrupt checkpoint naming thread and checkpoint", () => {
    const good = packWrites([
      [
        {
          threadId: "t",
          ns: "",
          checkpointId: "c1",
          taskId: "a",
          idx: 0,
          channel: "x",
          kind: "value",
          data: "1",
          taskPath: "",
        },
      ],
    ]);
    for (const damaged of [
      good.slice(0, good.length - 3),
      "{}",
      '["a",""]',
      '["a","",0,"x",2,"1"]',
      '["a","",-1,"x",0,"1"]',
      '["a","",0,"x",0,1]',
      '[1,"",0,"x",0,"1"]',
      `${good}\n`,
    ]) {
      const error = (() => {
        try {
          unpackWrites(damaged, "thread-9", "", "ckpt-3");
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error, damaged).toBeInstanceOf(CheckpointCorruptError);
      expect((error as Error).message).toMatch(/ckpt-3 of thread "thread-9".*pending writes/);
    }
  });
});
