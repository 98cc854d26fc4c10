import { AIMessage, type BaseMessage, isAIMessage, isToolMessage, type ToolCall } from "../messages/index.js";
import { AgentGraphError, type AgentGraphErrorOptions } from "../shared/index.js";

/**
 * The agent was asked to call the model with a history in which some tool call has no
 * `ToolMessage` answering it (most providers reject such a history). The message lists the
 * first few unanswered calls; `code` is `"INVALID_CHAT_HISTORY"`.
 *
 * @example
 * ```ts
 * try {
 *   await agent.invoke({ messages: [new AIMessage({ content: "", tool_calls: [call] })] });
 * } catch (e) {
 *   if (e instanceof InvalidChatHistoryError) console.log(e.code); // "INVALID_CHAT_HISTORY"
 * }
 * ```
 */
export class InvalidChatHistoryError extends AgentGraphError {
  static override readonly brandName: string = "InvalidChatHistoryError";
  constructor(message: string, options: AgentGraphErrorOptions = {}) {
    super(message, { code: "INVALID_CHAT_HISTORY", ...options });
  }
}

/** Throws {@link InvalidChatHistoryError} when a tool call in `messages` has no `ToolMessage`. */
export function validateChatHistory(messages: readonly BaseMessage[]): void {
  const answered = new Set<string | undefined>();
  for (const message of messages) if (isToolMessage(message)) answered.add(message.tool_call_id);
  const unanswered: ToolCall[] = [];
  for (const message of messages) {
    if (!isAIMessage(message)) continue;
    for (const call of message.tool_calls) if (!answered.has(call.id)) unanswered.push(call);
  }
  if (unanswered.length === 0) return;
  throw new InvalidChatHistoryError(
    "Found AIMessages with tool_calls that do not have a corresponding ToolMessage. " +
      `Here are the first few of those tool calls: ${JSON.stringify(unanswered.slice(0, 3))}.\n\n` +
      "Every tool call (LLM requesting to call a tool) in the message history MUST have a corresponding ToolMessage " +
      "(result of a tool invocation to return to the LLM) - this is required by most LLM providers.\n" +
      "For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CHAT_HISTORY",
  );
}

/** The text of the answer the agent gives when the recursion limit leaves no room for tools. */
export const NEED_MORE_STEPS = "Sorry, need more steps to process this request.";

/** Which optional nodes sit on the agent's loop and after it (each costs a step). */
export interface LoopShape {
  readonly preModelHook: boolean;
  readonly postModelHook: boolean;
  readonly structuredResponse: boolean;
  readonly returnDirect: ReadonlySet<string>;
}

/**
 * The supersteps the agent's tool calls need after the agent's own step: the post-model hook
 * (if any) and the tools; then, unless every call is return-direct (which ends the run), the
 * pre-model hook, the agent again, and what follows its next answer (the post-model hook, the
 * structured response). Python counts only tools and agent; the other nodes are steps too.
 */
export function stepsNeeded(calls: readonly ToolCall[], shape: LoopShape): number {
  if (calls.length === 0) return 0;
  const post = shape.postModelHook ? 1 : 0;
  if (calls.every((call) => shape.returnDirect.has(call.name))) return post + 1;
  const afterNextAnswer = post + (shape.structuredResponse ? 1 : 0);
  return post + 1 + (shape.preModelHook ? 1 : 0) + 1 + afterNextAnswer;
}

/**
 * The agent's answer given what remains of the recursion limit: the model's response, or, when
 * its tool calls could not finish within the limit, an apology under the response's id, so the
 * run ends normally instead of failing with `GraphRecursionError`.
 *
 * A run fails when its last task ran at the last step the limit allows (`remainingSteps` 0):
 * the loop checks the limit before it finds that nothing is left to run. So the last node of
 * the loop must run with at least one step remaining, and the tool calls may go on only when
 * `remainingSteps >= stepsNeeded + 1` (3 for a plain tool round trip, 2 when every call is
 * return-direct).
 */
export function answerWithinSteps(
  response: AIMessage,
  remainingSteps: number | undefined,
  shape: LoopShape,
): AIMessage {
  if (remainingSteps === undefined || response.tool_calls.length === 0) return response;
  if (remainingSteps > stepsNeeded(response.tool_calls, shape)) return response;
  return new AIMessage({ id: response.id, content: NEED_MORE_STEPS, name: response.name });
}

/** The tool calls of the latest AI message that no `ToolMessage` answers yet. */
export function pendingToolCalls(messages: readonly BaseMessage[]): ToolCall[] {
  const answered = new Set<string>();
  let last: AIMessage | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (isToolMessage(message)) answered.add(message.tool_call_id);
    else if (last === undefined && isAIMessage(message)) last = message;
  }
  return (last?.tool_calls ?? []).filter((call) => call.id == null || !answered.has(call.id));
}

/** Whether the trailing tool results include one from a return-direct tool. */
export function endsWithReturnDirect(
  messages: readonly BaseMessage[],
  returnDirect: ReadonlySet<string>,
): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!isToolMessage(message)) return false;
    if (message.name !== undefined && returnDirect.has(message.name)) return true;
  }
  return false;
}
