import { describe, expect, it } from "vitest";
import { END, Send } from "../graph/index.js";
import { AIMessage, HumanMessage, ToolMessage } from "../messages/index.js";
import { answer, asking, call } from "./agent.test-helpers.js";
import {
  type AgentAnchors,
  jumpDestinations,
  jumpRouter,
  modelRouter,
  resolveJump,
  type ToolKinds,
  toolsRouter,
} from "./routing.js";

const anchors: AgentAnchors = {
  entry: "M.before_agent",
  loopEntry: "M.before_model",
  loopExit: "M.after_model",
  exit: "M.after_agent",
  hasTools: true,
};
const kinds: ToolKinds = {
  structured: new Set(["Weather"]),
  provider: new Set(["web_search"]),
  returnDirect: new Set(["lookup"]),
  client: new Set(["search", "lookup"]),
};
const human = new HumanMessage("hi");
const toolMessage = (id: string, name: string, status?: "error") =>
  new ToolMessage({ content: "r", tool_call_id: id, name, ...(status === undefined ? {} : { status }) });

describe("resolveJump", () => {
  it("maps model, tools and end to the model node, the tools node and the exit", () => {
    expect(resolveJump("model", anchors)).toBe("model_request");
    expect(resolveJump("tools", anchors)).toBe("tools");
    expect(resolveJump("end", anchors)).toBe("M.after_agent");
    expect(resolveJump("end", anchors, END)).toBe(END);
    // LangChain.js also takes the node names
    expect(resolveJump("model_request", anchors)).toBe("model_request");
    expect(resolveJump(END, anchors)).toBe("M.after_agent");
    expect(jumpDestinations(["tools", "end"], { ...anchors, hasTools: false })).toEqual(["M.after_agent"]);
    expect(() => resolveJump("nowhere", anchors)).toThrow(
      'Invalid jump target: nowhere, must be "model", "tools" or "end".',
    );
  });

  it("jumpRouter follows the jump, else the next node", () => {
    const route = jumpRouter(anchors, "next");
    expect(route({ messages: [] })).toBe("next");
    expect(route({ messages: [], jumpTo: "end" })).toBe("M.after_agent");
  });
});

describe("modelRouter, in the reference's order", () => {
  const route = modelRouter(anchors, kinds, true);

  it("1. follows jumpTo first", () => {
    expect(route({ messages: [asking("a", call("search", {}, "c1"))], jumpTo: "model" })).toBe(
      "model_request",
    );
    expect(route({ messages: [human], jumpTo: "tools" })).toBe("tools");
  });

  it("2. exits when there is no AI message", () => {
    expect(route({ messages: [human] })).toBe("M.after_agent");
  });

  it("3. exits when the AI message has no (client) tool calls", () => {
    expect(route({ messages: [human, answer("a", "done")] })).toBe("M.after_agent");
    expect(route({ messages: [human, asking("a", call("web_search", {}, "s1"))] })).toBe("M.after_agent");
  });

  it("4. sends each pending call alone to the tools node", () => {
    const ai = asking(
      "a",
      call("search", { query: "x" }, "c1"),
      call("lookup", { key: "k" }, "c2"),
      call("Weather", {}, "w"),
    );
    const out = route({ messages: [human, ai, toolMessage("c1", "search")] });
    // a structured-output call nobody answered (a forked AI message) is sent too, as in
    // LangChain.js 1.5.14, whose tools node then answers it with an error
    expect(out).toEqual([
      new Send("tools", [call("lookup", { key: "k" }, "c2")]),
      new Send("tools", [call("Weather", {}, "w")]),
    ]);
  });

  it("4a. right after the model, leaves out calls named extract-<n> and ends when only those are left", () => {
    const direct = modelRouter(anchors, kinds, true, true);
    const extract = call("extract-3", {}, "x");
    expect(direct({ messages: [human, asking("a", extract)] })).toBe("M.after_agent");
    expect(direct({ messages: [human, asking("a", extract, call("search", {}, "c1"))] })).toEqual([
      new Send("tools", [call("search", {}, "c1")]),
    ]);
    // a titled structured-output call is run as any other (LangChain.js looks at the prefix only)
    expect(direct({ messages: [human, asking("a", call("Weather", {}, "w"))] })).toEqual([
      new Send("tools", [call("Weather", {}, "w")]),
    ]);
    // after afterModel hooks the prefix does not matter
    expect(route({ messages: [human, asking("a", extract)] })).toEqual([new Send("tools", [extract])]);
  });

  it("4b. exits when calls are pending but there is no tools node", () => {
    const noTools = modelRouter({ ...anchors, hasTools: false }, kinds, true);
    expect(noTools({ messages: [human, asking("a", call("search", {}, "c1"))] })).toBe("M.after_agent");
  });

  it("5. exits when a structured response is present", () => {
    const ai = asking("a", call("Weather", {}, "w"));
    expect(
      route({ messages: [human, ai, toolMessage("w", "Weather")], structuredResponse: { city: "x" } }),
    ).toBe("M.after_agent");
  });

  it("6. otherwise goes back to the model (every call answered)", () => {
    const ai = asking("a", call("Weather", {}, "w"));
    expect(route({ messages: [human, ai, toolMessage("w", "Weather")] })).toBe("model_request");
    expect(modelRouter(anchors, kinds, false)({ messages: [human, ai, toolMessage("w", "Weather")] })).toBe(
      "M.after_agent",
    );
  });
});

describe("toolsRouter", () => {
  const route = toolsRouter(anchors, kinds);

  it("exits when every executed client tool is returnDirect", () => {
    const ai = asking("a", call("lookup", {}, "c1"), call("lookup", {}, "c2"));
    expect(route({ messages: [human, ai, toolMessage("c1", "lookup"), toolMessage("c2", "lookup")] })).toBe(
      "M.after_agent",
    );
  });

  it("loops when only some are returnDirect, whatever the order of the answers", () => {
    const ai = asking("a", call("search", {}, "c1"), call("lookup", {}, "c2"));
    expect(route({ messages: [human, ai, toolMessage("c1", "search"), toolMessage("c2", "lookup")] })).toBe(
      "M.before_model",
    );
    // a parallel task sees only its own answer: it still decides from the whole message
    expect(route({ messages: [human, ai, toolMessage("c2", "lookup")] })).toBe("M.before_model");
  });

  it("loops when a returnDirect tool failed", () => {
    const ai = asking("a", call("lookup", {}, "c1"));
    expect(route({ messages: [human, ai, toolMessage("c1", "lookup", "error")] })).toBe("M.before_model");
  });

  it("prefers the tool message's name (a redirected call)", () => {
    const ai = asking("a", call("search", {}, "c1"));
    expect(route({ messages: [human, ai, toolMessage("c1", "lookup")] })).toBe("M.after_agent");
  });

  it("loops when the step answered nothing (a jump to tools after a returnDirect answer)", () => {
    // LangChain.js reads the last message only: a human message after the answer loops
    const ai = asking("a", call("lookup", {}, "c1"));
    expect(route({ messages: [human, ai, toolMessage("c1", "lookup"), new HumanMessage("again")] })).toBe(
      "M.before_model",
    );
  });

  it("loops to the entry without an AI message", () => {
    expect(route({ messages: [human] })).toBe("M.before_model");
  });

  it("exits when a structured-output tool was answered", () => {
    const ai = new AIMessage({
      content: "",
      tool_calls: [call("search", {}, "c1"), call("Weather", {}, "w")],
    });
    expect(route({ messages: [human, ai, toolMessage("w", "Weather"), toolMessage("c1", "search")] })).toBe(
      "M.after_agent",
    );
  });
});
