/**
 * todoListMiddleware: give the agent a `todos` state field and a `write_todos` tool to plan
 * multi-step work (the system prompt explains the tool to the model).
 * Run: npx tsx --conditions=source examples/middleware/todo-list.ts
 */
import { createAgent, todoListMiddleware } from "agentgraph/agents";
import { AIMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";

const todos = [
  { content: "Draft the announcement", status: "in_progress" },
  { content: "Email the list", status: "pending" },
];

const agent = createAgent({
  // the scripted model writes a plan with write_todos, then answers
  model: new FakeChatModel({
    responses: [
      new AIMessage({
        content: "",
        tool_calls: [{ name: "write_todos", args: { todos }, id: "call_1", type: "tool_call" }],
      }),
      "Plan ready.",
    ],
  }),
  middleware: [todoListMiddleware()],
});

const result = await agent.invoke({ messages: [new HumanMessage("Plan the launch")] });
for (const todo of result.todos) console.log(`[${todo.status}] ${todo.content}`);
console.log("tool answered:", result.messages[2]?.text);
