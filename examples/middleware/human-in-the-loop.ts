/**
 * humanInTheLoopMiddleware: pause before chosen tool calls run, and resume with a person's
 * decision (approve, edit or reject). Pausing needs a checkpointer.
 * Run: npx tsx --conditions=source examples/middleware/human-in-the-loop.ts
 */
import { Command, MemorySaver } from "agentgraph";
import { createAgent, humanInTheLoopMiddleware } from "agentgraph/agents";
import { AIMessage, HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";
import { tool } from "agentgraph/tools";
import { z } from "zod";

const writeFile = tool(async ({ path }) => `wrote ${path}`, {
  name: "write_file",
  description: "Write a file.",
  schema: z.object({ path: z.string() }),
});

const agent = createAgent({
  model: new FakeChatModel({
    responses: [
      new AIMessage({
        content: "",
        tool_calls: [{ name: "write_file", args: { path: "notes.txt" }, id: "call_1", type: "tool_call" }],
      }),
      "Done.",
    ],
  }),
  tools: [writeFile],
  checkpointer: new MemorySaver(),
  middleware: [
    humanInTheLoopMiddleware({
      interruptOn: { write_file: { allowedDecisions: ["approve", "edit", "reject"] } },
    }),
  ],
});

const config = { configurable: { thread_id: "review" } };

// 1. The run stops before write_file runs; the interrupt lists the calls to review.
const paused = await agent.invoke({ messages: [new HumanMessage("Save my notes")] }, config);
const review = paused.__interrupt__?.[0]?.value as { actionRequests: Array<{ name: string; args: unknown }> };
console.log("to review:", JSON.stringify(review.actionRequests.map(({ name, args }) => ({ name, args }))));

// 2. Resume with one decision per call: here the reviewer edits the path.
const done = await agent.invoke(
  new Command({
    resume: {
      decisions: [{ type: "edit", editedAction: { name: "write_file", args: { path: "safe.txt" } } }],
    },
  }),
  config,
);
console.log("tool result:", done.messages.at(-2)?.text);
console.log("answer:", done.messages.at(-1)?.text);
