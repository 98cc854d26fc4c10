import { CHECKPOINT_FORMAT_VERSION, type Checkpoint } from "./types.js";

/** A checkpoint with no state, as a new thread starts from. */
export function emptyCheckpoint(id = ""): Checkpoint {
  return {
    v: CHECKPOINT_FORMAT_VERSION,
    id,
    ts: new Date().toISOString(),
    channel_values: {},
    channel_versions: {},
    versions_seen: {},
  };
}
