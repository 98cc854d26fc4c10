import type { BaseChannel } from "../channels/index.js";
import { EmptyChannelError } from "../core/index.js";
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

/**
 * A channel's snapshot (`checkpoint()`), `undefined` when it is empty: also for a channel whose
 * `checkpoint()` throws `EmptyChannelError` when empty, as LangGraph.js's channels (and custom
 * channels written for it) do.
 */
export function snapshotChannel(channel: BaseChannel): unknown {
  try {
    return channel.checkpoint();
  } catch (error) {
    if (
      error instanceof EmptyChannelError ||
      (error as { name?: unknown } | null)?.name === "EmptyChannelError"
    ) {
      return undefined;
    }
    throw error;
  }
}
