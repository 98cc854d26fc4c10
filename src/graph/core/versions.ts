/** A channel version: an increasing number, or a saver-defined string that sorts in order. */
export type ChannelVersion = number | string;

/**
 * Compares two channel versions. Numbers compare numerically and strings lexicographically
 * (savers that mint strings pad them so that this order is their minting order); a number
 * sorts before any string.
 */
export function compareVersions(a: ChannelVersion, b: ChannelVersion): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The default version sequence: 1, 2, 3, … (numeric part of string versions is honoured). */
export function nextIntegerVersion(current: ChannelVersion | undefined): ChannelVersion {
  if (current === undefined) return 1;
  if (typeof current === "number") return current + 1;
  const n = Number.parseInt(current.split(".")[0] ?? "0", 10);
  return (Number.isFinite(n) ? n : 0) + 1;
}
