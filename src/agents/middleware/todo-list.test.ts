import { describe, expect, expectTypeOf, it } from "vitest";
import "../../index.js";
import { AIMessage, HumanMessage, ToolMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import type { StructuredToolInterface } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import type { AgentMiddleware } from "../types.js";
import {
  TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT,
  type Todo,
  todoListMiddleware,
  WRITE_TODOS_TOOL_DESCRIPTION,
} from "./todo-list.js";

const writeCall = (id: string, todos: unknown[]) => ({
  name: "write_todos",
  args: { todos },
  id,
  type: "tool_call" as const,
});
const PARALLEL =
  "Error: The `write_todos` tool should never be called multiple times in parallel. Please call it only once per model invocation to update the todo list.";

describe("todoListMiddleware", () => {
  it("write_todos updates the todos state and answers with the JSON list", async () => {
    const todos = [
      { content: "a", status: "in_progress" },
      { content: "b", status: "pending" },
    ];
    const model = new FakeChatModel({
      responses: [new AIMessage({ content: "", tool_calls: [writeCall("w1", todos)] }), "done"],
    });
    const agent = createAgent({ model, middleware: [todoListMiddleware()] });
    const result = await agent.invoke({ messages: [new HumanMessage("plan")] });
    expect(result.todos).toEqual(todos);
    const answer = result.messages[2] as ToolMessage;
    expect(answer).toBeInstanceOf(ToolMessage);
    expect(answer.text).toBe(`Updated todo list to ${JSON.stringify(todos)}`);
    expect(answer.tool_call_id).toBe("w1");
    expect(answer.name).toBe("write_todos");
    expect(result.messages.at(-1)?.text).toBe("done");
  });

  it("starts with an empty list", async () => {
    const model = new FakeChatModel({ responses: ["hi"] });
    const agent = createAgent({ model, middleware: [todoListMiddleware()] });
    const result = await agent.invoke({ messages: [new HumanMessage("hello")] });
    expect(result.todos).toEqual([]);
    expectTypeOf(result.todos).toEqualTypeOf<Todo[]>();
    // @ts-expect-error the todo list middleware adds no other state field
    void result.notAField;
  });

  it("appends the default prompt to the system message, or uses it alone", async () => {
    const bare = new FakeChatModel({ responses: ["ok"] });
    await createAgent({ model: bare, middleware: [todoListMiddleware()] }).invoke({
      messages: [new HumanMessage("x")],
    });
    expect(bare.calls[0]?.[0]?.getType()).toBe("system");
    expect(bare.calls[0]?.[0]?.text).toBe(`\n\n${TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT}`);

    const withPrompt = new FakeChatModel({ responses: ["ok"] });
    await createAgent({ model: withPrompt, systemPrompt: "Base", middleware: [todoListMiddleware()] }).invoke(
      {
        messages: [new HumanMessage("x")],
      },
    );
    expect(withPrompt.calls[0]?.[0]?.text).toBe(`Base\n\n${TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT}`);
  });

  it("uses a custom systemPrompt and toolDescription", async () => {
    const model = new FakeChatModel({ responses: ["ok"] });
    const middleware = todoListMiddleware({ systemPrompt: "TODO PROMPT", toolDescription: "Custom tool." });
    await createAgent({ model, systemPrompt: "Base", middleware: [middleware] }).invoke({
      messages: [new HumanMessage("x")],
    });
    expect(model.calls[0]?.[0]?.text).toBe("Base\n\nTODO PROMPT");
    const writeTodos = (middleware as AgentMiddleware).tools?.[0] as StructuredToolInterface;
    expect(writeTodos.name).toBe("write_todos");
    expect(writeTodos.description).toBe("Custom tool.");
    const defaults = (todoListMiddleware() as AgentMiddleware).tools?.[0] as StructuredToolInterface;
    expect(defaults.description).toBe(WRITE_TODOS_TOOL_DESCRIPTION);
    expect(
      WRITE_TODOS_TOOL_DESCRIPTION.startsWith("Use this tool to create and manage a structured task list"),
    ).toBe(true);
  });

  it("answers parallel write_todos calls with errors instead of running them", async () => {
    const model = new FakeChatModel({
      responses: [
        new AIMessage({
          content: "",
          tool_calls: [writeCall("w2", [{ content: "x", status: "pending" }]), writeCall("w3", [])],
        }),
        "done",
      ],
    });
    const agent = createAgent({ model, middleware: [todoListMiddleware()] });
    const result = await agent.invoke({ messages: [new HumanMessage("plan")] });
    const tools = result.messages.filter((m): m is ToolMessage => m instanceof ToolMessage);
    expect(tools.map((m) => [m.tool_call_id, m.status, m.name, m.text])).toEqual([
      ["w2", "error", "write_todos", PARALLEL],
      ["w3", "error", "write_todos", PARALLEL],
    ]);
    expect(result.todos).toEqual([]);
  });

  it("afterModel ignores a single call and messages without tool calls", () => {
    const afterHook = (todoListMiddleware() as AgentMiddleware).afterModel as (state: unknown) => unknown;
    expect(
      afterHook({ messages: [new AIMessage({ content: "", tool_calls: [writeCall("w", [])] })] }),
    ).toBeUndefined();
    expect(afterHook({ messages: [new AIMessage("plain")] })).toBeUndefined();
    expect(afterHook({ messages: [] })).toBeUndefined();
  });

  it("rejects an invalid todo status through the tool schema", async () => {
    const model = new FakeChatModel({
      responses: [
        new AIMessage({ content: "", tool_calls: [writeCall("w1", [{ content: "a", status: "done" }])] }),
        "ok",
      ],
    });
    const agent = createAgent({ model, middleware: [todoListMiddleware()] });
    const result = await agent.invoke({ messages: [new HumanMessage("plan")] });
    const answer = result.messages[2] as ToolMessage;
    expect(answer.status).toBe("error");
    // the schema is a zod/v3 one, as LangChain.js's, so the model reads the same issue text
    expect(answer.content).toContain(
      "Received tool input did not match expected schema\n\n✖ Invalid enum value. Expected 'pending' | 'in_progress' | 'completed', received 'done'\n  → at todos[0].status",
    );
    expect(result.todos).toEqual([]);
  });
});
