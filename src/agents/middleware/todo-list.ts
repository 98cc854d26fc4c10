import { z } from "zod/v3";
import { Command } from "../../graph/index.js";
import { type AIMessage, isAIMessage, ToolMessage } from "../../messages/index.js";
import { tool } from "../../tools/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware } from "../types.js";
import { TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT, WRITE_TODOS_TOOL_DESCRIPTION } from "./todo-list-prompts.js";

export { TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT, WRITE_TODOS_TOOL_DESCRIPTION };

/**
 * One item of the agent's todo list.
 *
 * @example
 * ```ts
 * const todo: Todo = { content: "Write the tests", status: "in_progress" };
 * ```
 */
export interface Todo {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/**
 * Options of {@link todoListMiddleware}: the text appended to the system prompt (default
 * {@link TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT}) and the `write_todos` tool's description
 * (default {@link WRITE_TODOS_TOOL_DESCRIPTION}).
 *
 * @example
 * ```ts
 * const options: TodoListMiddlewareOptions = { systemPrompt: "Plan with write_todos." };
 * ```
 */
export interface TodoListMiddlewareOptions {
  systemPrompt?: string;
  toolDescription?: string;
}

const TodoSchema = z.object({
  content: z.string().describe("Content of the todo item"),
  status: z.enum(["pending", "in_progress", "completed"]).describe("Status of the todo"),
});

const stateSchema = z.object({ todos: z.array(TodoSchema).default([]) });

const PARALLEL_CALLS_ERROR =
  "Error: The `write_todos` tool should never be called multiple times in parallel. Please call it only once per model invocation to update the todo list.";

/**
 * Gives the agent a todo list, as LangChain.js's `todoListMiddleware`: a `todos` state field
 * (default `[]`), a `write_todos` tool that replaces the list (answering
 * `Updated todo list to <JSON>`), and a system prompt section on how to use it, appended to
 * the system message of every model call. Several `write_todos` calls in one AI message are
 * all answered with an error instead of being run.
 *
 * @example
 * ```ts
 * import { createAgent, todoListMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({ model: "openai:gpt-4.1", middleware: [todoListMiddleware()] });
 * const { todos } = await agent.invoke({ messages: [{ role: "user", content: "Plan a launch." }] });
 * ```
 */
export function todoListMiddleware(
  options: TodoListMiddlewareOptions = {},
): AgentMiddleware<{ todos: Todo[] }, Record<string, unknown>> {
  const writeTodos = tool(
    ({ todos }, runtime) =>
      new Command({
        update: {
          todos,
          messages: [
            new ToolMessage({
              content: `Updated todo list to ${JSON.stringify(todos)}`,
              tool_call_id: runtime?.toolCallId ?? runtime?.toolCall?.id ?? "",
              name: "write_todos",
            }),
          ],
        },
      }),
    {
      name: "write_todos",
      description: options.toolDescription ?? WRITE_TODOS_TOOL_DESCRIPTION,
      schema: z.object({ todos: z.array(TodoSchema).describe("List of todo items to update") }),
    },
  );
  const prompt = options.systemPrompt ?? TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT;
  const middleware = createMiddleware({
    name: "todoListMiddleware",
    stateSchema,
    tools: [writeTodos],
    wrapModelCall: (request, handler) =>
      handler({
        ...request,
        systemMessage: request.systemMessage.concat(`\n\n${prompt}`),
      }),
    afterModel: (state) => {
      const last = lastAIMessage(state.messages);
      if (last === undefined) return undefined;
      const calls = last.tool_calls.filter((call) => call.name === "write_todos");
      if (calls.length <= 1) return undefined;
      return {
        messages: calls.map(
          (call) =>
            new ToolMessage({
              content: PARALLEL_CALLS_ERROR,
              tool_call_id: call.id ?? "",
              name: "write_todos",
              status: "error",
            }),
        ),
      };
    },
  });
  return middleware as unknown as AgentMiddleware<{ todos: Todo[] }, Record<string, unknown>>;
}

function lastAIMessage(messages: readonly unknown[]): AIMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (isAIMessage(message)) return message;
  }
  return undefined;
}
