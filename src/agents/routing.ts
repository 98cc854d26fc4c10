import { END, Send } from "../graph/index.js";
import {
  type AIMessage,
  type BaseMessage,
  isAIMessage,
  isToolMessage,
  type ToolCall,
} from "../messages/index.js";
import type { JumpTo } from "./types.js";

/** Name of the model node. */
export const MODEL_NODE = "model_request";
/** Name of the tools node. */
export const TOOLS_NODE = "tools";

/**
 * The anchors of the agent graph: where the run starts, where the tool loop comes back to,
 * where the model's answer is routed from, and where the run leaves the loop.
 */
export interface AgentAnchors {
  /** First `before_agent` node, else first `before_model` node, else the model. */
  readonly entry: string;
  /** First `before_model` node, else the model: the tools node loops back here. */
  readonly loopEntry: string;
  /** First middleware's `after_model` node (it runs last), else the model. */
  readonly loopExit: string;
  /** Last middleware's `after_agent` node (it runs first), else END. */
  readonly exit: string;
  /** Whether the graph has a tools node. */
  readonly hasTools: boolean;
}

type RouterState = { messages: BaseMessage[]; jumpTo?: JumpTo | undefined; structuredResponse?: unknown };

/**
 * Where a `jumpTo` target leads (`model_request` and `__end__` are aliases of `model` and
 * `end`); `end` goes to `endNode` (the exit, or END from after_agent
 * hooks). `tools` leads to the tools node even when the agent has none: the run then fails
 * with the engine's unknown-destination error, as LangChain.js's does. An unknown target is a
 * plain `Error` with LangChain.js's text.
 */
export function resolveJump(target: unknown, anchors: AgentAnchors, endNode: string = anchors.exit): string {
  // the node names themselves are accepted too (`model_request`, `__end__`), as in LangChain.js
  switch (target) {
    case "model":
    case MODEL_NODE:
      return MODEL_NODE;
    case "tools":
      return TOOLS_NODE;
    case "end":
    case END:
      return endNode;
    default:
      throw new Error(`Invalid jump target: ${String(target)}, must be "model", "tools" or "end".`);
  }
}

/**
 * The nodes a hook with these declared targets may jump to (checked when the agent is built, as
 * LangChain.js does); `tools` is left out of an agent without a tools node.
 */
export function jumpDestinations(
  targets: readonly JumpTo[],
  anchors: AgentAnchors,
  endNode: string = anchors.exit,
): string[] {
  return targets
    .map((t) => resolveJump(t, anchors, endNode))
    .filter((node) => node !== TOOLS_NODE || anchors.hasTools);
}

/**
 * Tells the engine that `router` does not modify the state it reads (a registered symbol the
 * engine's compiler looks for): the engine then keeps the messages list it merged for the
 * router's read for the end of the step, rather than merging the history again.
 */
function readOnly<F extends (state: RouterState) => unknown>(router: F): F {
  Object.defineProperty(router, Symbol.for("agentgraph.router.readOnly"), { value: true });
  return router;
}

/** Router of a middleware node that declared `canJumpTo`: the jump, else the next node. */
export function jumpRouter(anchors: AgentAnchors, next: string, endNode: string = anchors.exit) {
  return readOnly((state: RouterState): string =>
    state.jumpTo ? resolveJump(state.jumpTo, anchors, endNode) : next,
  );
}

function lastAIIndex(messages: readonly BaseMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (isAIMessage(messages[i])) return i;
  return -1;
}

function answeredIds(messages: readonly BaseMessage[], from: number): Set<string> {
  const ids = new Set<string>();
  for (let i = from; i < messages.length; i += 1) {
    const m = messages[i];
    if (m !== undefined && isToolMessage(m)) ids.add(m.tool_call_id);
  }
  return ids;
}

/** The name prefix of a minted structured-output tool, which LangChain.js's routers look for. */
const EXTRACT_PREFIX = "extract-";

/** What the routers need to know about the agent's tools. */
export interface ToolKinds {
  /** Names of structured-output tools (answered by the model node itself). */
  readonly structured: ReadonlySet<string>;
  /** Names of provider-side tools (run by the provider, never here). */
  readonly provider: ReadonlySet<string>;
  /** Names of client tools that are `returnDirect`. */
  readonly returnDirect: ReadonlySet<string>;
  /** Names of client tools. */
  readonly client: ReadonlySet<string>;
}

/**
 * The router after the model (at the loop exit), in the reference's order: a `jumpTo`; no AI
 * message → exit; `directAfterModel` (no `afterModel` hook between) and the last message not an
 * AI message → exit, or back to the model when the AI message called a structured-output tool
 * and no structured response was parsed (a retry, as LangChain.js commands it); no tool calls → exit (the classic end of an agent loop), and
 * with `directAfterModel` none but `extract-<n>` calls → exit too; calls not yet answered
 * (structured-output calls included) → one `Send` per call to the tools node, carrying only that call (the tools node
 * reads the state from the channels), or with `oneToolsTask` (`version: "v1"`) the tools node
 * itself, which runs them all; a structured response → exit; otherwise back to the
 * model (every call was answered, e.g. by a structured-output retry).
 */
export function modelRouter(
  anchors: AgentAnchors,
  kinds: ToolKinds,
  modelReachable: boolean,
  directAfterModel = false,
  oneToolsTask = false,
) {
  return readOnly((state: RouterState): string | Send[] => {
    if (state.jumpTo) return resolveJump(state.jumpTo, anchors);
    const messages = state.messages;
    const index = lastAIIndex(messages);
    if (index < 0) return anchors.exit;
    const ai = messages[index] as AIMessage;
    // right after the model, LangChain.js ends unless the last message is an AI message (its
    // answer took the place of an earlier message with the same id); a structured-output
    // retry, whose error ToolMessage comes last, goes straight back to the model, leaving the
    // answer's other calls unrun (LangChain.js's model node commands the retry)
    if (directAfterModel && index !== messages.length - 1) {
      if (!ai.tool_calls.some((call) => kinds.structured.has(call.name))) return anchors.exit;
      if (state.structuredResponse === undefined) return modelReachable ? MODEL_NODE : anchors.exit;
    }
    let calls = ai.tool_calls.filter((call) => !kinds.provider.has(call.name));
    if (calls.length === 0) return anchors.exit;
    // right after the model, LangChain.js leaves out the calls with an `extract-` name (how its
    // router tells a structured-output call) and ends when nothing else is left; a
    // structured-output call nobody answered otherwise goes to the tools node like any other
    // (an AI message given by `updateState`), which answers it with an error
    if (directAfterModel) {
      calls = calls.filter((call) => !call.name.startsWith(EXTRACT_PREFIX));
      if (calls.length === 0) return anchors.exit;
    }
    const answered = answeredIds(messages, index + 1);
    const pending = calls.filter((call) => !(call.id !== undefined && answered.has(call.id)));
    if (pending.length > 0) {
      if (!anchors.hasTools) return anchors.exit;
      // `version: "v1"`: one tools task runs every pending call (as a jump to "tools" does)
      if (oneToolsTask) return TOOLS_NODE;
      return pending.map((call) => new Send(TOOLS_NODE, [call]));
    }
    if (state.structuredResponse !== undefined) return anchors.exit;
    return modelReachable ? MODEL_NODE : anchors.exit;
  });
}

/**
 * The router after the tools node: exit when every client tool call of the last AI message is
 * `returnDirect` (all of them, not only the last one: each parallel tools task decides the same
 * way, from the whole message), or when a structured-output tool was answered; otherwise back
 * to the loop entry. A step that answered nothing (the last message is not a `ToolMessage`)
 * goes back to the loop entry.
 */
export function toolsRouter(anchors: AgentAnchors, kinds: ToolKinds) {
  return readOnly((state: RouterState): string => {
    const messages = state.messages;
    const index = lastAIIndex(messages);
    if (index < 0) return anchors.loopEntry;
    // no tool answered in this step (a jump to "tools" with every call already answered): the
    // answers after the AI message are an earlier step's, so they decide nothing, as in
    // LangChain.js, whose rule reads the last message only
    const last = messages[messages.length - 1];
    if (last === undefined || !isToolMessage(last)) return anchors.loopEntry;
    const ai = messages[index] as AIMessage;
    const answers = new Map<string, BaseMessage>();
    for (let i = index + 1; i < messages.length; i += 1) {
      const m = messages[i];
      if (m !== undefined && isToolMessage(m)) answers.set(m.tool_call_id, m);
    }
    const executed: string[] = [];
    let failed = false;
    for (const call of ai.tool_calls as ToolCall[]) {
      if (kinds.structured.has(call.name) || kinds.provider.has(call.name)) continue;
      const answer = call.id === undefined ? undefined : answers.get(call.id);
      // a human-in-the-loop edit may redirect a call: the tool message's name is what ran
      const name = (answer?.name as string | undefined) ?? call.name;
      if (!kinds.client.has(name)) continue;
      if ((answer as { status?: string } | undefined)?.status === "error") failed = true;
      executed.push(name);
    }
    if (!failed && executed.length > 0 && executed.every((name) => kinds.returnDirect.has(name))) {
      return anchors.exit;
    }
    for (const m of answers.values()) {
      if (m.name !== undefined && kinds.structured.has(m.name)) return anchors.exit;
    }
    return anchors.loopEntry;
  });
}
