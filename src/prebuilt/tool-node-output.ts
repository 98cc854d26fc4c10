import { Command, commandUpdateEntries, isCommand, isSend, type Send } from "../graph/index.js";
import { isToolMessage, type ToolCall, ToolMessage } from "../messages/index.js";
import type { ToolCallResult } from "./tool-node-wrap.js";

/**
 * What a tool's `invoke` returned, as a result answering `call`: a `Command` passes through;
 * a `ToolMessage` passes through (its call id filled in when missing; its name left as the tool
 * set it, as LangGraph.js does); anything
 * else (what a tool returns for a call without an id, or a tool not built with `tool()`) becomes
 * the content of a `ToolMessage`: a string as it is, any other value (content blocks too) as its
 * JSON text, as LangGraph.js writes it (`undefined` gives empty content).
 */
export function toToolCallResult(output: unknown, call: ToolCall, toolName: string): ToolCallResult {
  if (isCommand(output)) return output;
  if (isToolMessage(output)) {
    if (output.tool_call_id === "" && call.id !== undefined) output.tool_call_id = call.id;
    return output;
  }
  return new ToolMessage({
    // JSON.stringify(undefined) is undefined: the message's content is then empty, as there
    content: typeof output === "string" ? output : (JSON.stringify(output) as string),
    name: toolName,
    // a call without an id is answered without one (null reads as no id), as in LangGraph.js;
    // its error answers carry ""
    tool_call_id: call.id ?? (null as unknown as string),
    status: "success",
  });
}

/**
 * The ToolNode's output: without commands, the messages (a list for list input, else
 * `{ messages }`); with commands, a list mixing the commands and one update per message, the
 * commands for the parent graph that only send (`goto` of `Send`s) merged into one, last.
 */
export function combineResults(results: readonly ToolCallResult[], listOutput: boolean): unknown {
  if (!results.some(isCommand)) return listOutput ? [...results] : { messages: [...results] };
  const combined: unknown[] = [];
  const parentSends: Send[] = [];
  const parentUpdates: [string, unknown][] = [];
  for (const result of results) {
    if (!isCommand(result)) {
      combined.push(listOutput ? [result] : { messages: [result] });
    } else if (isParentSendCommand(result)) {
      parentSends.push(...(result.goto as Send[]));
      parentUpdates.push(...commandUpdateEntries(result));
    } else {
      combined.push(result);
    }
  }
  if (parentSends.length > 0) {
    const params: { graph: string; goto: Send[]; update?: [string, unknown][] } = {
      graph: Command.PARENT,
      goto: parentSends,
    };
    if (parentUpdates.length > 0) params.update = parentUpdates;
    combined.push(new Command(params));
  }
  return combined;
}

function isParentSendCommand(command: Command): boolean {
  const goto = (command as { goto?: unknown }).goto;
  return command.graph === Command.PARENT && Array.isArray(goto) && goto.length > 0 && goto.every(isSend);
}
