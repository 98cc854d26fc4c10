// Run in a fresh process: uses agentgraph without ever importing the root "agentgraph" entry.
import { createAgent, humanInTheLoopMiddleware } from "agentgraph/agents";
import { SqliteSaver } from "agentgraph/checkpoint/sqlite";
import { DemoChatModel } from "agentgraph/models";
import { tool } from "agentgraph/tools";
import { z } from "zod";

const getWeather = tool(async ({ city }) => `sunny in ${city}`, {
  name: "get_weather",
  description: "Get weather for a city.",
  schema: z.object({ city: z.string() }),
});
const saver = SqliteSaver.fromConnString(":memory:");
const agent = createAgent({
  model: new DemoChatModel(),
  tools: [getWeather],
  checkpointer: saver,
  middleware: [humanInTheLoopMiddleware({ interruptOn: { get_weather: true } })],
});
const cfg = { configurable: { thread_id: "1" } };
const out = await agent.invoke({ messages: [{ role: "user", content: "Weather in Paris?" }] }, cfg);
console.log(JSON.stringify({ interrupted: out.__interrupt__?.[0]?.value?.actionRequests?.[0]?.name }));
const st = await agent.getState(cfg);
console.log(JSON.stringify({ classes: st.values.messages.map((m) => m.constructor?.name) }));
