import { describe, expect, it } from "vitest";
import * as agents from "./index.js";
import { context } from "./prompt-context.js";

// Expected strings are what `context` from langchain 1.5.14 returns for the same templates.
describe("context", () => {
  it("strips the common indentation and trims", () => {
    const role = "agent";
    expect(context`
      You are an ${role}.
      Your task is to help users.
    `).toBe("You are an agent.\nYour task is to help users.");
  });

  it("indents a multi-line value like the line it starts on", () => {
    const items = "- Item 1\n- Item 2";
    expect(context`
      Shopping list:
        ${items}
      End of list.
    `).toBe("Shopping list:\n  - Item 1\n  - Item 2\nEnd of list.");
  });

  it("writes values that are not strings as JSON", () => {
    expect(context`Value: ${{ a: 1 }} and ${[1, 2]} and ${42} and ${null}`).toBe(
      'Value: {"a":1} and [1,2] and 42 and null',
    );
  });

  it("handles line continuations and the template's escapes", () => {
    expect(context`
      Line one \
        continues here.
      Escapes: \` \$ \{ and a\nbreak.
    `).toBe("Line one continues here.\nEscapes: ` $ { and a\nbreak.");
  });

  it("leaves lines in the first column alone and does not count them", () => {
    expect(context`
top level
    indented
      more
`).toBe("top level\nindented\n  more");
  });
});

describe("langchain's root re-exports", () => {
  it("are reachable from agentgraph/agents", () => {
    for (const name of [
      "AIMessage",
      "HumanMessage",
      "SystemMessage",
      "ToolMessage",
      "AIMessageChunk",
      "BaseMessage",
      "tool",
      "DynamicStructuredTool",
      "StructuredTool",
      "InMemoryStore",
      "initChatModel",
      "trimMessages",
      "filterMessages",
      "context",
    ]) {
      expect(agents, name).toHaveProperty(name);
    }
    const message = new agents.HumanMessage("hi");
    expect(message.getType()).toBe("human");
  });
});
