import { copyOf } from "../../../shared/index.js";
import type { ChannelVersion } from "../../core/index.js";
import type { ChannelVersions } from "../types.js";

/** The bookkeeping of a checkpoint: versions of channels, and versions each node last saw. */
export interface Bookkeeping {
  versions: ChannelVersions;
  seen: Record<string, ChannelVersions>;
}

/** What changed in the bookkeeping between a checkpoint and its parent (`null`: removed). */
export interface BookkeepingDelta {
  versions: Record<string, ChannelVersion | null>;
  seen: Record<string, Record<string, ChannelVersion | null> | null>;
}

/** Longest chain of checkpoint deltas before a checkpoint's bookkeeping is stored in full again. */
export const CHECKPOINT_CHAIN_LIMIT = 64;

function diffVersions(
  before: ChannelVersions | undefined,
  after: ChannelVersions,
): Record<string, ChannelVersion | null> | undefined {
  const out: Record<string, ChannelVersion | null> = {};
  let changed = false;
  for (const key in after) {
    const value = after[key] as ChannelVersion;
    if (before === undefined || before[key] !== value) {
      out[key] = value;
      changed = true;
    }
  }
  if (before !== undefined) {
    for (const key in before) {
      if (!(key in after)) {
        out[key] = null;
        changed = true;
      }
    }
  }
  return changed ? out : undefined;
}

/** The delta from `parent` to `next`. */
export function diffBookkeeping(parent: Bookkeeping, next: Bookkeeping): BookkeepingDelta {
  const versions = diffVersions(parent.versions, next.versions) ?? {};
  const seen: BookkeepingDelta["seen"] = {};
  for (const node in next.seen) {
    const before = parent.seen[node];
    const changed = diffVersions(before, next.seen[node] as ChannelVersions);
    // a node new to the checkpoint is named even when it saw nothing (`{ node: {} }` is kept)
    if (changed !== undefined) seen[node] = changed;
    else if (!Object.hasOwn(parent.seen, node)) seen[node] = {};
  }
  for (const node in parent.seen) if (!(node in next.seen)) seen[node] = null;
  return { versions, seen };
}

function applyVersions(base: ChannelVersions, delta: Record<string, ChannelVersion | null>): void {
  for (const key in delta) {
    const value = delta[key];
    if (value === null || value === undefined) delete base[key];
    else base[key] = value;
  }
}

/**
 * Applies a delta to a copy of `base` (the copy is returned; `base` is untouched). The copies
 * that the delta then extends are made with copyOf, not spreads (see shared/object-copy.ts): a
 * read applies a chain of up to 64 deltas.
 */
export function applyBookkeepingDelta(base: Bookkeeping, delta: BookkeepingDelta): Bookkeeping {
  const versions = copyOf(base.versions);
  applyVersions(versions, delta.versions);
  const seen: Record<string, ChannelVersions> = {};
  for (const node in base.seen) seen[node] = base.seen[node] as ChannelVersions;
  for (const node in delta.seen) {
    const change = delta.seen[node];
    if (change === null || change === undefined) {
      delete seen[node];
      continue;
    }
    const next = copyOf(seen[node]);
    applyVersions(next, change);
    seen[node] = next;
  }
  return { versions, seen };
}

/** A deep copy of some bookkeeping. */
export function copyBookkeeping(bookkeeping: Bookkeeping): Bookkeeping {
  const seen: Record<string, ChannelVersions> = {};
  for (const node in bookkeeping.seen) seen[node] = { ...bookkeeping.seen[node] };
  return { versions: { ...bookkeeping.versions }, seen };
}

/** The bookkeeping part of a {@link CheckpointRecord}, and its time, as the saver works with them. */
export interface CheckpointRecord {
  v: number;
  ts: string;
  full?: Bookkeeping;
  delta?: BookkeepingDelta;
  /**
   * Small channel values stored in the record rather than as rows: the encoded value, or `null`
   * for an empty channel. A delta record holds those of the channels it changed; a full record
   * those of every current channel small enough.
   */
  inline?: Record<string, string | null>;
  /**
   * Encoded values of channels the checkpoint has no version for (a checkpoint put by hand, not
   * by a run): kept with this checkpoint only, as LangGraph.js's MemorySaver keeps them.
   */
  loose?: Record<string, string>;
  /** Encoded fields of the checkpoint beyond the format's own (e.g. a v1 `pending_sends`). */
  extra?: string;
}

/**
 * The stored (JSON) form of a record: `v` (left out when it is 4, the current format), `t` (the
 * timestamp, as epoch milliseconds when that gives it back exactly; left out when it is the row's
 * `createdAt`, as the saver stores it whenever it can), `f` or `d` (`[versions, seen]`, in full or as a delta), `i` (inline
 * values). In a delta, the version most channels moved to is written once as `s` and stands as
 * `true`, and a version a node saw that is its parent's version of that channel is `false`
 * (that is what a step records for the triggers of the nodes it ran). A delta's inline values of
 * channels that all moved to `s` are written as `I` instead of `i`, and those channels are left
 * out of the delta's versions (the step's triggers and flags are named once, not twice).
 */
interface StoredRecord {
  v?: number;
  t?: string | number;
  s?: ChannelVersion;
  f?: [ChannelVersions, Record<string, ChannelVersions>];
  d?: [
    Record<string, ChannelVersion | null | true>,
    Record<string, Record<string, ChannelVersion | null | boolean> | null>,
  ];
  i?: Record<string, string | null>;
  I?: Record<string, string | null>;
  u?: Record<string, string>;
  x?: string;
}

/** The last timestamp encoded, and how it was stored (checkpoints of one millisecond share it). */
let lastTime: { ts: string; stored: string | number } | undefined;

/** A timestamp as epoch milliseconds when that gives it back exactly, else as given. */
function storedTime(ts: string): string | number {
  if (lastTime !== undefined && lastTime.ts === ts) return lastTime.stored;
  const millis = Date.parse(ts);
  const stored = Number.isFinite(millis) && new Date(millis).toISOString() === ts ? millis : ts;
  lastTime = { ts, stored };
  return stored;
}

/** The version most channels of a delta moved to (a step mints one version for all it changes). */
function commonVersion(versions: Record<string, ChannelVersion | null>): ChannelVersion | undefined {
  let first: ChannelVersion | undefined;
  let uniform = true;
  for (const key in versions) {
    const version = versions[key];
    if (version === null || version === undefined) continue;
    if (first === undefined) first = version;
    else if (version !== first) uniform = false;
  }
  if (uniform) return first;
  const counts = new Map<ChannelVersion, number>();
  let step: ChannelVersion | undefined;
  let best = 0;
  for (const key in versions) {
    const version = versions[key];
    if (version === null || version === undefined) continue;
    const n = (counts.get(version) ?? 0) + 1;
    counts.set(version, n);
    if (n > best) {
      best = n;
      step = version;
    }
  }
  return step;
}

/** Whether `ts` is an ISO time that epoch milliseconds give back exactly (what the loop writes). */
export function hasExactMillis(ts: string): boolean {
  return typeof storedTime(ts) === "number";
}

/**
 * The row time to store with a record of this timestamp: the timestamp itself in epoch
 * milliseconds when that gives it back exactly (the record then leaves its time out), else now.
 */
export function recordRowTime(ts: string): number {
  const stored = storedTime(ts);
  return typeof stored === "number" ? stored : Date.now();
}

/**
 * Encodes a record; a delta needs the bookkeeping of the parent it is a delta of. `createdAt` is
 * the time stored in the record's row (see {@link recordRowTime}).
 */
export function encodeRecord(
  record: CheckpointRecord,
  parent: Bookkeeping | undefined,
  createdAt: number,
): string {
  const stored: StoredRecord = {};
  if (record.v !== 4) stored.v = record.v;
  const time = storedTime(record.ts);
  if (time !== createdAt) stored.t = time;
  if (record.full !== undefined) stored.f = [record.full.versions, record.full.seen];
  const delta = record.delta;
  if (delta !== undefined) {
    const step = commonVersion(delta.versions);
    // the inline channels go by their values alone when every one of them moved to the step
    let implied = step !== undefined && record.inline !== undefined;
    for (const key in record.inline) {
      if (delta.versions[key] !== step) {
        implied = false;
        break;
      }
    }
    const versions: Record<string, ChannelVersion | null | true> = {};
    for (const key in delta.versions) {
      if (implied && Object.hasOwn(record.inline as object, key)) continue;
      const version = delta.versions[key] as ChannelVersion | null;
      versions[key] = step !== undefined && version === step ? true : version;
    }
    if (implied && record.inline !== undefined) stored.I = record.inline;
    const seen: Record<string, Record<string, ChannelVersion | null | boolean> | null> = {};
    for (const node in delta.seen) {
      const change = delta.seen[node];
      if (change === null || change === undefined) {
        seen[node] = null;
        continue;
      }
      const out: Record<string, ChannelVersion | null | boolean> = {};
      for (const key in change) {
        const version = change[key] as ChannelVersion | null;
        if (step !== undefined && version === step) out[key] = true;
        else if (version !== null && parent !== undefined && parent.versions[key] === version)
          out[key] = false;
        else out[key] = version;
      }
      seen[node] = out;
    }
    if (step !== undefined) stored.s = step;
    stored.d = [versions, seen];
  }
  if (record.inline !== undefined && stored.I === undefined) stored.i = record.inline;
  if (record.loose !== undefined) stored.u = record.loose;
  if (record.extra !== undefined) stored.x = record.extra;
  return JSON.stringify(stored);
}

/**
 * Parses a stored record. A delta's `true`/`false` stand-ins are resolved against `parent` (the
 * bookkeeping it applies to) by {@link resolveRecord}; until then the record is only checked.
 */
export function parseRecord(text: string): StoredRecordView {
  const stored = JSON.parse(text) as StoredRecord;
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) {
    throw new SyntaxError("a checkpoint record must be an object");
  }
  if (stored.v !== undefined && typeof stored.v !== "number") {
    throw new SyntaxError("a checkpoint record's format version must be a number");
  }
  return stored as unknown as StoredRecordView;
}

/** A parsed, not yet resolved record (see {@link parseRecord}). */
export type StoredRecordView = { readonly __stored: true } & Readonly<Record<string, unknown>>;

/**
 * Resolves a parsed record against the bookkeeping of its parent (unused for a full record);
 * `createdAt` is its row's time (the record's own when it leaves its time out).
 */
export function resolveRecord(
  view: StoredRecordView,
  parent: Bookkeeping | undefined,
  createdAt: number,
): CheckpointRecord {
  const stored = view as unknown as StoredRecord;
  const time = stored.t ?? createdAt;
  const record: CheckpointRecord = {
    v: stored.v ?? 4,
    ts: typeof time === "number" ? new Date(time).toISOString() : String(time),
  };
  if (stored.f !== undefined) record.full = { versions: stored.f[0], seen: stored.f[1] };
  if (stored.d !== undefined) {
    const step = stored.s;
    const versions: Record<string, ChannelVersion | null> = {};
    const [storedVersions, storedSeen] = stored.d;
    for (const key in storedVersions) {
      const version = storedVersions[key];
      versions[key] = version === true ? (step as ChannelVersion) : (version as ChannelVersion | null);
    }
    for (const key in stored.I) versions[key] = step as ChannelVersion;
    const seen: BookkeepingDelta["seen"] = {};
    for (const node in storedSeen) {
      const change = storedSeen[node];
      if (change === null || change === undefined) {
        seen[node] = null;
        continue;
      }
      const out: Record<string, ChannelVersion | null> = {};
      for (const key in change) {
        const version = change[key];
        if (version === true) out[key] = step as ChannelVersion;
        else if (version === false) out[key] = (parent?.versions[key] ?? null) as ChannelVersion | null;
        else out[key] = version as ChannelVersion | null;
      }
      seen[node] = out;
    }
    record.delta = { versions, seen };
  }
  if (stored.i !== undefined) record.inline = stored.i;
  else if (stored.I !== undefined) record.inline = stored.I;
  if (stored.u !== undefined) record.loose = stored.u;
  if (stored.x !== undefined) record.extra = stored.x;
  return record;
}

/** Whether a parsed record holds its bookkeeping in full. */
export function isFullRecord(view: StoredRecordView): boolean {
  return (view as unknown as StoredRecord).f !== undefined;
}
