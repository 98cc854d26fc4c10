/**
 * modelCallLimitMiddleware: cap model calls per thread (kept in the checkpoint) and per run.
 * Run: npx tsx --conditions=source examples/middleware/model-call-limit.ts
 */
import { MemorySaver } from "agentgraph";
import { createAgent, modelCallLimitMiddleware } from "agentgraph/agents";
import { HumanMessage } from "agentgraph/messages";
import { FakeChatModel } from "agentgraph/testing";

const agent = createAgent({
  // an offline scripted model: it answers with these texts, in order
  model: new FakeChatModel({ responses: ["First answer.", "Second answer."] }),
  // the thread count lives in the checkpoint, so it spans runs on the same thread_id
  checkpointer: new MemorySaver(),
  middleware: [modelCallLimitMiddleware({ threadLimit: 1, exitBehavior: "end" })],
});

const config = { configurable: { thread_id: "limits" } };
const first = await agent.invoke({ messages: [new HumanMessage("Hi")] }, config);
console.log("run 1:", first.messages.at(-1)?.text);

// The second run would need a second model call on this thread: the middleware skips it and
// ends the run with an explanatory AI message instead.
const second = await agent.invoke({ messages: [new HumanMessage("Again")] }, config);
console.log("run 2:", second.messages.at(-1)?.text);
console.log("threadModelCallCount:", second.threadModelCallCount);
