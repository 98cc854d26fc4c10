import { CHECKPOINT_NAMESPACE_SEPARATOR, PUSH } from "../core/index.js";

/**
 * The namespace of the graph a task belongs to, from the task's checkpoint namespace and path:
 * the namespace without the task's own segment, nor those of the tasks that called it (a
 * functional-API call's namespace nests in its caller's, `ep:<id>|task:<id>`, but its events
 * belong to the caller's graph, as in LangGraph.js).
 */
export function graphNamespace(taskNs: string, path?: unknown): string[] {
  const segments = taskNs.split(CHECKPOINT_NAMESPACE_SEPARATOR);
  let own = 1;
  let at = path;
  while (Array.isArray(at) && at[0] === PUSH && at[at.length - 1] === true) {
    own += 1;
    at = at[1];
  }
  segments.length = Math.max(segments.length - own, 0);
  return segments;
}

/** The checkpoint namespace of the node task a callback's metadata belongs to (`""` outside a node). */
export function taskCheckpointNs(metadata: Record<string, unknown> | undefined): string {
  const ns = metadata?.langgraph_checkpoint_ns ?? metadata?.checkpoint_ns;
  return typeof ns === "string" ? ns : "";
}
