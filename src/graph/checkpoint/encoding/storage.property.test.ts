/**
 * BlobRowIndex against a plain lookup: whatever order a storage returns its rows in (heads with
 * their chains after them, shuffled, with rows of other channels and forks in between), every
 * row is found by channel and version, and a chain walked with `below` reaches the same nodes
 * as walking it by version.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BlobRow, BlobRowIndex } from "./storage.js";

function row(channel: string, version: string, kind: BlobRow["kind"], prev: string | null): BlobRow {
  return { threadId: "t", ns: "", channel, version, kind, data: null, prev, depth: 0 };
}

/** A channel's chain: a full node, then `length` splices, newest first (as storages return it). */
function chain(channel: string, length: number, base = 0): BlobRow[] {
  const rows: BlobRow[] = [];
  for (let i = length; i >= 1; i--) rows.push(row(channel, `v${base + i}`, "splice", `v${base + i - 1}`));
  rows.push(row(channel, `v${base}`, "list", null));
  return rows;
}

const rowsArb = fc
  .record({
    a: fc.nat(8),
    b: fc.nat(8),
    /** A sibling branch of `a` from its full node, versions after `a`'s. */
    fork: fc.nat(4),
    values: fc.nat(3),
    order: fc.constantFrom("storage", "reversed", "shuffled"),
    seed: fc.integer(),
  })
  .map(({ a, b, fork, values, order, seed }) => {
    let rows = [...chain("a", a), ...chain("b", b)];
    for (let i = 0; i < fork; i++) {
      rows.push(row("a", `w${i}`, "splice", i === 0 ? "v0" : `w${i - 1}`));
    }
    for (let i = 0; i < values; i++) rows.push(row(`value${i}`, "v1", "value", null));
    if (order === "reversed") rows = rows.reverse();
    if (order === "shuffled") {
      let state = seed;
      rows = rows
        .map((r) => {
          state = (Math.imul(state, 1103515245) + 12345) | 0;
          return { r, key: state };
        })
        .sort((x, y) => x.key - y.key)
        .map((x) => x.r);
    }
    return rows;
  });

describe("BlobRowIndex", () => {
  it("finds every row, and walks chains to the nodes a lookup by version finds", () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const index = new BlobRowIndex(rows);
        const byKey = new Map(rows.map((r) => [`${r.channel}/${r.version}`, r]));
        for (const r of rows) expect(index.row(r.channel, r.version)).toBe(r);
        expect(index.row("a", "nowhere")).toBeUndefined();
        expect(index.position("c", "v0")).toBeUndefined();
        for (let at = 0; at < rows.length; at++) {
          let node = rows[at] as BlobRow;
          let position: number | undefined = at;
          const walked: BlobRow[] = [];
          let missing: string | undefined;
          while (node.kind === "splice" && node.prev !== null) {
            position = index.below(position as number, node.channel, node.prev);
            const want = byKey.get(`${node.channel}/${node.prev}`);
            expect(position === undefined ? undefined : rows[position]).toBe(want);
            if (want === undefined) {
              missing = node.prev;
              break;
            }
            walked.push(want);
            node = want;
          }
          expect(index.chainBelow(at)).toEqual({ nodes: walked, missing });
        }
      }),
      { numRuns: 500 },
    );
  });

  it("follows a chain in storage order by position", () => {
    const rows = [...chain("messages", 3), row("flag", "v9", "value", null)];
    const index = new BlobRowIndex(rows);
    expect(index.position("messages", "v3")).toBe(0);
    expect(index.below(0, "messages", "v2")).toBe(1);
    expect(index.below(1, "messages", "v1")).toBe(2);
    expect(index.below(2, "messages", "v0")).toBe(3);
    expect(index.row("flag", "v9")?.kind).toBe("value");
    expect(index.chainBelow(0).nodes.map((r) => r.version)).toEqual(["v2", "v1", "v0"]);
  });

  it("ends a cyclic chain after at most one node per row", () => {
    const rows = [
      row("a", "v3", "splice", "v2"),
      row("a", "v2", "splice", "v3"),
      row("a", "v0", "list", null),
    ];
    const { nodes } = new BlobRowIndex(rows).chainBelow(0);
    expect(nodes.length).toBeLessThanOrEqual(rows.length + 1);
    expect(nodes.at(-1)?.kind).toBe("splice");
  });
});
