import { uuid6 } from "./compat.js";
import { CHECKPOINT_FORMAT_VERSION, type Checkpoint } from "./types.js";

/**
 * A checkpoint with no state, as a new thread starts from. Its id is a new time-ordered UUID
 * (`uuid6(0)`, as in LangGraph.js) unless one is given.
 */
export function emptyCheckpoint(id: string = uuid6(0)): Checkpoint {
  return {
    v: CHECKPOINT_FORMAT_VERSION,
    id,
    ts: new Date().toISOString(),
    channel_values: {},
    channel_versions: {},
    versions_seen: {},
  };
}
