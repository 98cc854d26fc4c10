import { uniqueId } from "../../shared/index.js";
import { unwrapOverwrite } from "../core/index.js";

/** A message object, recognised by shape (the engine never imports the message classes). */
export function isMessageObject(value: unknown): value is { id?: string | null } {
  return (
    typeof value === "object" &&
    value !== null &&
    "content" in value &&
    typeof (value as { getType?: unknown }).getType === "function"
  );
}

/**
 * Gives every message object in a write (alone or in arrays) an id if it has none, in place, as
 * LangGraph.js's messages reducer does. `intoOverwrite`: also the messages an `Overwrite` wraps
 * (a write that bypasses the reducer keeps its objects as they are otherwise).
 */
export function stampMessageIds(value: unknown, intoOverwrite: boolean): void {
  if (isMessageObject(value)) {
    if (value.id == null) value.id = uniqueId();
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) stampMessageIds(item, intoOverwrite);
    return;
  }
  if (!intoOverwrite) return;
  const overwrite = unwrapOverwrite(value);
  if (overwrite !== undefined) stampMessageIds(overwrite.value, intoOverwrite);
}
