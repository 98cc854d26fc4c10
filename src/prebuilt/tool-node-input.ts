import {
  type AIMessage,
  type BaseMessage,
  isAIMessage,
  isBaseMessage,
  type ToolCall,
} from "../messages/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import { isToolCall } from "../tools/index.js";

/**
 * What a ToolNode can be invoked with: graph state with `messages`, a list of messages, a
 * list of tool calls (or one), or LangGraph.js's `Send` payload `{ ...state, lg_tool_call }`.
 *
 * @example
 * ```ts
 * const input: ToolNodeInput = { messages: [new AIMessage({ content: "", tool_calls: [call] })] };
 * ```
 */
export type ToolNodeInput =
  | BaseMessage[]
  | ToolCall[]
  | ToolCall
  | { messages: BaseMessage[]; [key: string]: unknown }
  | { lg_tool_call: ToolCall; [key: string]: unknown };

/** The calls to run, the state tools see, and whether the output is a list or `{ messages }`. */
export interface ParsedToolNodeInput {
  readonly calls: ToolCall[];
  readonly state: unknown;
  readonly listOutput: boolean;
  /**
   * The input was only tool calls (what a `Send` of one call carries): the state tools see is
   * read from the graph's channels when the node runs inside a graph.
   */
  readonly stateFromGraph: boolean;
}

/** `{ name, args }` with or without `type: "tool_call"`: what a message's `tool_calls` hold. */
function isCallShaped(value: unknown): value is ToolCall {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const call = value as { name?: unknown; args?: unknown; type?: unknown };
  return (
    typeof call.name === "string" && "args" in call && (call.type === undefined || call.type === "tool_call")
  );
}

/** Reads the tool calls to run from a ToolNode's input (the reference's error texts). */
export function parseToolNodeInput(input: unknown): ParsedToolNodeInput {
  if (typeof input === "object" && input !== null && !Array.isArray(input) && "lg_tool_call" in input) {
    const { lg_tool_call: call, ...state } = input as { lg_tool_call: unknown };
    // a call read off a message may lack `type: "tool_call"` (messages keep calls as given)
    if (!isCallShaped(call)) {
      throw new InvalidArgumentError(
        'ToolNode received a Send payload whose lg_tool_call is not a tool call. Send { ...state, lg_tool_call: { name, args, id, type: "tool_call" } }.',
      );
    }
    return { calls: [call], state, listOutput: false, stateFromGraph: false };
  }
  if (isToolCall(input)) return { calls: [input], state: {}, listOutput: false, stateFromGraph: true };
  if (Array.isArray(input) && input.length > 0 && input.every(isCallShaped)) {
    return { calls: input as ToolCall[], state: {}, listOutput: false, stateFromGraph: true };
  }
  let messages: BaseMessage[];
  if (isMessageList(input)) messages = input;
  else if (isMessagesState(input)) messages = input.messages;
  else
    throw new InvalidArgumentError(
      "ToolNode only accepts BaseMessage[] or { messages: BaseMessage[] } as input.",
    );
  const ai = lastAIMessage(messages);
  if (ai === undefined) throw new InvalidArgumentError("ToolNode only accepts AIMessages as input.");
  const answered = new Set<string>();
  for (const message of messages) {
    if (message.getType() === "tool") answered.add((message as { tool_call_id?: string }).tool_call_id ?? "");
  }
  const calls = (ai.tool_calls ?? []).filter((call) => call.id === undefined || !answered.has(call.id));
  return { calls, state: input, listOutput: Array.isArray(input), stateFromGraph: false };
}

function isMessageList(value: unknown): value is BaseMessage[] {
  return Array.isArray(value) && value.every(isBaseMessage);
}

function isMessagesState(value: unknown): value is { messages: BaseMessage[] } {
  return (
    typeof value === "object" && value !== null && isMessageList((value as { messages?: unknown }).messages)
  );
}

function lastAIMessage(messages: readonly BaseMessage[]): AIMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (isAIMessage(message)) return message;
  }
  return undefined;
}
