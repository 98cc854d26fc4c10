import type { Channels } from "./types.js";

/**
 * Reads the available channels among `keys` into an object. Empty channels are left out
 * (their key is absent, not `undefined`).
 */
export function readChannels(channels: Channels, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const channel = channels[key];
    if (channel?.isAvailable()) out[key] = channel.get();
  }
  return out;
}

/** Reads one channel, or returns `undefined` when it is empty or unknown. */
export function readChannel(channels: Channels, key: string): unknown {
  const channel = channels[key];
  return channel?.isAvailable() ? channel.get() : undefined;
}
