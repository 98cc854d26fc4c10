/**
 * Loads the runtime under test. Both expose the same LangGraph.js-shaped graph API, so every
 * workload runs unchanged on either:
 *   agentgraph   this package, resolved through its own exports map (run `npm run build` first)
 *   langgraphjs  the reference, @langchain/langgraph (a dev dependency used only in bench/)
 */
export type ImplName = "agentgraph" | "langgraphjs";

// The graph API is typed loosely on purpose: the same code drives two libraries.
export interface GraphApi {
  // biome-ignore lint/suspicious/noExplicitAny: shared by two implementations with different generics
  StateGraph: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  Annotation: any;
  START: string;
  END: string;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  Send: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  Command: any;
}

/** The graph API plus what the persistence workloads use (messages, MemorySaver). */
export interface FullApi extends GraphApi {
  // biome-ignore lint/suspicious/noExplicitAny: shared by two implementations
  MessagesAnnotation: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  MemorySaver: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  AIMessage: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  HumanMessage: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  ToolMessage: any;
}

export async function loadImpl(name: ImplName): Promise<GraphApi> {
  const mod = name === "agentgraph" ? await import("agentgraph") : await import("@langchain/langgraph");
  const { StateGraph, Annotation, START, END, Send, Command } = mod as unknown as GraphApi;
  return { StateGraph, Annotation, START, END, Send, Command };
}

export async function loadFullImpl(name: ImplName): Promise<FullApi> {
  const graph = (name === "agentgraph"
    ? await import("agentgraph")
    : await import("@langchain/langgraph")) as unknown as Record<string, unknown>;
  const messages = (name === "agentgraph"
    ? await import("agentgraph/messages")
    : await import("@langchain/core/messages")) as unknown as Record<string, unknown>;
  return {
    ...(await loadImpl(name)),
    MessagesAnnotation: graph.MessagesAnnotation,
    MemorySaver: graph.MemorySaver,
    AIMessage: messages.AIMessage,
    HumanMessage: messages.HumanMessage,
    ToolMessage: messages.ToolMessage,
  };
}

export function implFromArgs(args: Record<string, string>): ImplName {
  const impl = args.impl ?? "agentgraph";
  if (impl !== "agentgraph" && impl !== "langgraphjs")
    throw new Error(`--impl must be agentgraph or langgraphjs, not ${impl}`);
  return impl;
}
