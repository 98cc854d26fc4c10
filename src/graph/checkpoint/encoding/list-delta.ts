/**
 * Lists stored as chains of splices (see docs/adr/0001-linear-checkpoint-storage.md).
 *
 * A version of a list is a node: `full` (every item reference) or `splice` (the previous node,
 * and where that list was cut and what was inserted). Chains are bounded: a node that would be
 * deeper than {@link listChainLimit} of its list's length is stored full.
 */

/** Shortest chain of splices allowed before a list is stored in full again. */
export const LIST_CHAIN_LIMIT = 64;

/** Longest chain of splices, whatever the length of the list (bounds the reads). */
export const LIST_CHAIN_MAX = 1024;

/**
 * How deep a chain of splices may grow on a list of `length` items: half its length, within
 * [{@link LIST_CHAIN_LIMIT}, {@link LIST_CHAIN_MAX}]. A full node of _n_ references then comes
 * at most every _n_/2 versions, so the full nodes of a list that grows by appends cost about two
 * references per version whatever its length (a fixed interval would cost _n_/interval each
 * version: quadratic over a long thread), while a read walks no more splices than the list has
 * items to fetch anyway.
 */
export function listChainLimit(length: number): number {
  return Math.min(LIST_CHAIN_MAX, Math.max(LIST_CHAIN_LIMIT, length >> 1));
}

/** A splice: remove `del` references at `start`, insert `ins` there. */
export interface Splice {
  start: number;
  del: number;
  ins: string[];
}

/** The stored form of a splice: `[start, deleteCount, ...inserted references]`. */
export function encodeSplice(splice: Splice): string {
  // concat, not a spread: a spread walks the inserted references with an iterator
  return JSON.stringify(([splice.start, splice.del] as (number | string)[]).concat(splice.ins));
}

/**
 * Reads a stored splice (the array form of {@link encodeSplice}, or the `{ start, del, ins }`
 * object of earlier versions); a value of another shape is a `SyntaxError`.
 */
export function decodeSplice(parsed: unknown): Splice {
  if (Array.isArray(parsed)) {
    // indexed, not destructured: a list read from storage can be a chain of hundreds of splices
    const start: unknown = parsed[0];
    const del: unknown = parsed[1];
    if (typeof start === "number" && typeof del === "number") {
      const ins = parsed.slice(2) as unknown[];
      let refs = true;
      for (let i = 0; i < ins.length && refs; i++) refs = typeof ins[i] === "string";
      if (refs) return { start, del, ins: ins as string[] };
    }
  } else if (typeof parsed === "object" && parsed !== null) {
    const { start, del, ins } = parsed as Partial<Record<keyof Splice, unknown>>;
    if (typeof start === "number" && typeof del === "number" && Array.isArray(ins))
      return { start, del, ins: ins as string[] };
  }
  throw new SyntaxError("a stored splice must be [start, deleteCount, ...references]");
}

/**
 * The smallest splice that turns `prev` into `next` (common prefix and suffix kept). `known`: a
 * length the caller knows the two lists to share at their start.
 */
export function diffLists(prev: readonly string[], next: readonly string[], known = 0): Splice {
  const max = Math.min(prev.length, next.length);
  let start = Math.min(known, max);
  while (start < max && prev[start] === next[start]) start++;
  let suffix = 0;
  while (suffix < max - start && prev[prev.length - 1 - suffix] === next[next.length - 1 - suffix]) {
    suffix++;
  }
  return { start, del: prev.length - start - suffix, ins: next.slice(start, next.length - suffix) };
}

/** Applies a splice to a list of references, in place, and returns it. */
export function applySplice(refs: string[], splice: Splice): string[] {
  if (splice.start > refs.length || splice.start + splice.del > refs.length) {
    throw new RangeError(
      `splice [${splice.start}, +${splice.del}] does not fit a list of ${refs.length} items`,
    );
  }
  if (splice.del === 0 && splice.start === refs.length) {
    // an append (what a history's steps mostly are): no spread of the inserted references
    for (const ref of splice.ins) refs.push(ref);
  } else {
    refs.splice(splice.start, splice.del, ...splice.ins);
  }
  return refs;
}

/**
 * Applies a stored splice (what {@link decodeSplice} reads) to a list of references, in place,
 * and returns it; a malformed splice is a `SyntaxError` and one that does not fit a `RangeError`,
 * and either leaves `refs` as it was. An append in the array form (most of a history's steps) is
 * applied without building the {@link Splice} first.
 */
export function applyStoredSplice(refs: string[], stored: unknown): string[] {
  if (Array.isArray(stored) && stored[1] === 0 && stored[0] === refs.length) {
    for (let i = 2; i < stored.length; i++) {
      if (typeof stored[i] !== "string") return applySplice(refs, decodeSplice(stored));
    }
    for (let i = 2; i < stored.length; i++) refs.push(stored[i] as string);
    return refs;
  }
  return applySplice(refs, decodeSplice(stored));
}

/**
 * Whether to store `splice` as a delta of a node at depth `prevDepth`, rather than the whole
 * list: only when the chain stays within {@link listChainLimit} and the delta is smaller than
 * the list.
 */
export function worthSplicing(splice: Splice, nextLength: number, prevDepth: number): boolean {
  return prevDepth + 1 < listChainLimit(nextLength) && splice.ins.length * 2 < nextLength + 2;
}
