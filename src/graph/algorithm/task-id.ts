import {
  CHECKPOINT_NAMESPACE_END,
  CHECKPOINT_NAMESPACE_SEPARATOR,
  deterministicId,
  type HashSeed,
  hashSeed,
} from "../core/index.js";
import type { TaskPath } from "./types.js";

/**
 * The id of a task: a hash of the checkpoint it runs from, its graph's namespace, the step,
 * the node and where the task comes from. Deterministic, so a task prepared again from the same
 * checkpoint (after a crash, on resume) finds the writes saved under its id.
 */
export function taskId(
  checkpointId: string,
  parentNs: string,
  step: number,
  name: string,
  origin: string,
): string {
  return deterministicId(`${step}\u0000${name}\u0000${origin}`, taskIdSeed(checkpointId, parentNs));
}

let lastSeedKey: string | undefined;
let lastSeed: HashSeed | undefined;

/** The hash of a task id's prefix (checkpoint id and namespace), kept while it repeats. */
function taskIdSeed(checkpointId: string, parentNs: string): HashSeed {
  const key = `${checkpointId}\u0000${parentNs}\u0000`;
  if (key !== lastSeedKey || lastSeed === undefined) {
    lastSeed = hashSeed(key);
    lastSeedKey = key;
  }
  return lastSeed;
}

/** The namespace of a task: `"<name>:<id>"`, appended to the parent's with `|`. */
export function taskNamespace(parentNs: string, name: string, id: string): string {
  const own = `${name}${CHECKPOINT_NAMESPACE_END}${id}`;
  return parentNs === "" ? own : `${parentNs}${CHECKPOINT_NAMESPACE_SEPARATOR}${own}`;
}

/**
 * The sort key of a task path (the `task_path` saved with its writes, in LangGraph's format:
 * `~__pregel_pull, node`). Tasks are ordered by it when their writes are applied, so the result
 * of a superstep does not depend on which task finished first. Numbers are zero-padded so that
 * `10` sorts after `9`.
 */
export function taskPathKey(path: TaskPath): string {
  let out = "~";
  for (let i = 0; i < path.length; i++) {
    if (i > 0) out += ", ";
    out += partKey(path[i]);
  }
  return out;
}

function partKey(part: TaskPath[number] | undefined): string {
  if (typeof part === "string") return part;
  if (typeof part === "number") {
    return part < 0 ? `-${String(-part).padStart(9, "0")}` : String(part).padStart(10, "0");
  }
  if (typeof part === "boolean") return part ? "0000000001" : "0000000000";
  if (part === undefined || part === null) return "~";
  return taskPathKey(part);
}
