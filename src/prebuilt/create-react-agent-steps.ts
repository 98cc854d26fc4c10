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
  /** The graph's static interrupts (`interruptBefore` / `interruptAfter`), which end a run early. */
  readonly interruptBefore?: readonly string[] | "*";
  readonly interruptAfter?: readonly string[] | "*";
}

function pausesAt(nodes: readonly string[] | "*" | undefined, node: string): boolean {
  return nodes === "*" || nodes?.includes(node) === true;
}

/**
 * The supersteps a run needs after the agent's step to go through `way` (the nodes that run
 * next, in order) and end: one per node, and one more for the loop to find nothing left, but
 * a static interrupt ends the run early (a resumed run has a fresh limit): before a node, the
 * step that would run it is the last; after a node, that node's step is.
 */
function stepsFor(way: readonly string[], shape: LoopShape): number {
  for (const [index, node] of way.entries()) {
    if (pausesAt(shape.interruptBefore, node) || pausesAt(shape.interruptAfter, node)) return index + 1;
  }
  return way.length + 1;
}

/**
 * The supersteps the agent's tool calls need after the agent's own step: the post-model hook
 * (if any) and the tools; then, unless a call goes to a return-direct tool (whose result ends
 * the run, as the tools node's route sees it), the pre-model hook, the agent again, and what
 * follows its next answer (the post-model hook, the structured response); then the step that
 * finds nothing left. A static interrupt on that way ends the run there. Python counts only
 * tools and agent; the other nodes are steps too.
 */
export function stepsNeeded(calls: readonly ToolCall[], shape: LoopShape): number {
  if (calls.length === 0) return 0;
  const way: string[] = [];
  if (shape.postModelHook) way.push("post_model_hook");
  way.push("tools");
  if (!calls.some((call) => shape.returnDirect.has(call.name))) {
    if (shape.preModelHook) way.push("pre_model_hook");
    way.push("agent");
    if (shape.postModelHook) way.push("post_model_hook");
    if (shape.structuredResponse) way.push("generate_structured_response");
  }
  return stepsFor(way, shape);
}

/**
 * The agent's answer given what remains of the recursion limit: the model's response, or, when
 * its tool calls could not finish within the limit, an apology under the response's id, so the
 * run ends normally instead of failing with `GraphRecursionError`.
 *
 * A run fails when the loop reaches a step beyond the limit, and it checks the limit before
 * it finds that nothing is left to run, so the tool calls may go on only when
 * `remainingSteps >= stepsNeeded` (3 for a plain tool round trip, 2 when a call is
 * return-direct). The apology is given only when it lets the run end within the limit (the
 * nodes after an answer without tools fit); otherwise the response is kept and the run fails
 * as LangGraph.js's does, with the same state to resume from. An interrupt after the agent
 * ends the run at once, so the response is always kept then.
 */
export function answerWithinSteps(
  response: AIMessage,
  remainingSteps: number | undefined,
  shape: LoopShape,
): AIMessage {
  if (remainingSteps === undefined || response.tool_calls.length === 0) return response;
  if (pausesAt(shape.interruptAfter, "agent")) return response;
  if (remainingSteps >= stepsNeeded(response.tool_calls, shape)) return response;
  const afterAnswer: string[] = [];
  if (shape.postModelHook) afterAnswer.push("post_model_hook");
  if (shape.structuredResponse) afterAnswer.push("generate_structured_response");
  if (remainingSteps < stepsFor(afterAnswer, shape)) return response;
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
