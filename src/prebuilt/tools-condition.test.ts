import { describe, expect, it } from "vitest";
import { END } from "../index.js";
import { AIMessage, HumanMessage, ToolMessage } from "../messages/index.js";
import { toolsCondition } from "./index.js";

const calling = new AIMessage({
  content: "",
  tool_calls: [{ name: "search", args: {}, id: "1", type: "tool_call" }],
});

describe("toolsCondition", () => {
  it('returns "tools" when the last message has tool calls, from state or a list', () => {
    expect(toolsCondition({ messages: [new HumanMessage("hi"), calling] })).toBe("tools");
    expect(toolsCondition([calling])).toBe("tools");
  });

  it("returns END otherwise", () => {
    expect(END).toBe("__end__");
    expect(
      toolsCondition({ messages: [calling, new ToolMessage({ content: "r", tool_call_id: "1" })] }),
    ).toBe(END);
    expect(toolsCondition([new AIMessage("done")])).toBe(END);
    expect(toolsCondition([new AIMessage({ content: "", tool_calls: [] })])).toBe(END);
    expect(toolsCondition({ messages: [] })).toBe(END);
  });
});
