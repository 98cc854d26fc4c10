import { type BaseChannel, BinaryOperatorAggregate } from "../channels/index.js";
import { RESERVED_WRITE_CHANNELS } from "../core/index.js";
import { wrapUpdateError } from "./apply-writes.js";
import { snapshotChannel } from "./read-channels.js";
import type { Channels } from "./types.js";

/**
 * Reads `keys` as they will be once `writes` are applied, without touching the live channels:
 * channels the writes touch are copied and updated; the others are read as they are. This is
 * the "fresh" state a conditional edge sees, including its own node's update.
 *
 * `readOnly`: the reader does not modify what it reads, so a live channel may keep what was
 * computed for the step's end (see `BinaryOperatorAggregate.rememberUpdate`).
 */
export function readWithWrites(
  channels: Channels,
  keys: readonly string[],
  writes: readonly (readonly [string, unknown])[],
  readOnly = false,
): Record<string, unknown> {
  let pending: Map<string, unknown[]> | undefined;
  // indexed loops: this runs on every step, mostly before the engine optimizes it, where each
  // `for…of` step (and each destructured pair) allocates
  for (let i = 0; i < writes.length; i++) {
    const write = writes[i] as readonly [string, unknown];
    const key = write[0];
    const value = write[1];
    if (RESERVED_WRITE_CHANNELS.has(key) || channels[key] === undefined) continue;
    pending ??= new Map();
    const list = pending.get(key);
    if (list === undefined) pending.set(key, [value]);
    else list.push(value);
  }
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const live = channels[key];
    if (live === undefined) continue;
    const values = pending?.get(key);
    let channel: BaseChannel = live;
    if (values !== undefined) {
      channel = live.fromCheckpoint(snapshotChannel(live));
      try {
        channel.update(values);
      } catch (error) {
        // as when the step's writes are applied: the channel and the values are named
        throw wrapUpdateError(key, values, error);
      }
      if (readOnly && live instanceof BinaryOperatorAggregate)
        live.rememberUpdate(values, channel as BinaryOperatorAggregate);
    }
    if (channel.isAvailable()) out[key] = channel.get();
  }
  return out;
}
