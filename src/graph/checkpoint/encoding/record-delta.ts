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
    const changed = diffVersions(parent.seen[node], next.seen[node] as ChannelVersions);
    if (changed !== undefined) seen[node] = changed;
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

/** Applies a delta to a copy of `base` (the copy is returned; `base` is untouched). */
export function applyBookkeepingDelta(base: Bookkeeping, delta: BookkeepingDelta): Bookkeeping {
  const versions = { ...base.versions };
  applyVersions(versions, delta.versions);
  const seen: Record<string, ChannelVersions> = {};
  for (const node in base.seen) seen[node] = base.seen[node] as ChannelVersions;
  for (const node in delta.seen) {
    const change = delta.seen[node];
    if (change === null || change === undefined) {
      delete seen[node];
      continue;
    }
    const next = { ...seen[node] };
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
