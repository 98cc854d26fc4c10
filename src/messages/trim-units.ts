import type { AIMessage } from "./ai.js";
import type { BaseMessage } from "./base.js";
import type { ToolMessage } from "./tool.js";

/** A run of messages that trimming keeps or drops as a whole: `messages[start..end)`. */
export interface MessageUnit {
  start: number;
  end: number;
}

/**
 * Cuts a conversation into units: an AI message with tool calls together with the tool
 * messages right after it that answer those calls, and every other message on its own.
 */
export function splitIntoUnits(messages: readonly BaseMessage[]): MessageUnit[] {
  const units: MessageUnit[] = [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i] as BaseMessage;
    let end = i + 1;
    const calls = message.type === "ai" ? (message as AIMessage).tool_calls : undefined;
    if (calls !== undefined && calls.length > 0) {
      const ids = new Set(calls.map((call) => call.id));
      while (end < messages.length) {
        const next = messages[end] as BaseMessage;
        if (next.type !== "tool" || !ids.has((next as ToolMessage).tool_call_id)) break;
        end += 1;
      }
    }
    units.push({ start: i, end });
    i = end;
  }
  return units;
}

/** The messages of one unit. */
export function unitMessages(messages: readonly BaseMessage[], unit: MessageUnit): BaseMessage[] {
  return messages.slice(unit.start, unit.end);
}
