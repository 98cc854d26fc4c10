// LangGraph.js's prebuilt type names, as a ported program uses them (the entry exports fixture pins
// that agentgraph/prebuilt exports them, ToolInvocation as ToolInvocationInterface).
import { describe, expect, it } from "vitest";
import { Annotation, Command, interrupt, MemorySaver, START, StateGraph } from "../index.js";
import { AIMessage } from "../messages/index.js";
import type {
  ActionRequest,
  AgentState,
  HumanInterrupt,
  HumanInterruptConfig,
  HumanResponse,
  ToolInvocation,
} from "./index.js";

describe("agentgraph/prebuilt's type names", () => {
  it("a human-in-the-loop review typed with HumanInterrupt / HumanResponse", async () => {
    const State = Annotation.Root({ sent: Annotation<string> });
    const config: HumanInterruptConfig = {
      allow_accept: true,
      allow_edit: true,
      allow_respond: true,
      allow_ignore: false,
    };
    const review = () => {
      const action: ActionRequest = { action: "send_email", args: { to: "ann@example.com" } };
      const request: HumanInterrupt = { action_request: action, config, description: "Send it?" };
      const [response] = interrupt<HumanInterrupt[], HumanResponse[]>([request]);
      if (response?.type === "edit" && typeof response.args === "object" && response.args !== null) {
        return { sent: String(response.args.args.to) };
      }
      return { sent: response?.type ?? "none" };
    };
    const graph = new StateGraph(State)
      .addNode("review", review)
      .addEdge(START, "review")
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "t" } };
    await graph.invoke({ sent: "" }, thread);
    const edit: HumanResponse = {
      type: "edit",
      args: { action: "send_email", args: { to: "bob@example.com" } },
    };
    expect(await graph.invoke(new Command({ resume: [edit] }), thread)).toEqual({ sent: "bob@example.com" });
    const accept: HumanResponse = { type: "accept", args: null };
    expect(accept.args).toBeNull();
  });

  it("AgentState and ToolInvocationInterface", () => {
    const state: AgentState<{ answer: string }> = {
      messages: [new AIMessage("hi")],
      structuredResponse: { answer: "42" },
    };
    const invocation: ToolInvocation = { tool: "search", toolInput: "query" };
    expect([state.structuredResponse.answer, invocation.tool]).toEqual(["42", "search"]);
  });
});
