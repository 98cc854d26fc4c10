/**
 * The seeds' weather agent, end to end: createAgent with one tool, checkpointed in SQLite, the
 * trace printed step by step in the pretty-print layout.
 *
 *   npm start                                   offline demo model (no key needed)
 *   AGENTGRAPH_MODEL=openai:gpt-4.1-mini OPENAI_API_KEY=… npm start
 *   AGENTGRAPH_MODEL=openai:qwen3 OPENAI_BASE_URL=http://127.0.0.1:8000/v1 npm start   (any OpenAI-compatible server)
 *   AGENTGRAPH_MODEL=anthropic:claude-sonnet-4-5 ANTHROPIC_API_KEY=… npm start
 *
 * Every run adds a turn to the same thread (`weather-demo`), stored in .agentgraph/weather.sqlite:
 * run it twice and the second run resumes the conversation from the saved checkpoint.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createAgent } from "agentgraph/agents";
import { SqliteSaver } from "agentgraph/checkpoint/sqlite";
import { HumanMessage } from "agentgraph/messages";
import { type BaseChatModel, DemoChatModel, initChatModel } from "agentgraph/models";
import { tool } from "agentgraph/tools";
import { z } from "zod";

const getWeather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
  name: "get_weather",
  description: "Get weather for a given city.",
  schema: z.object({ city: z.string().describe("The city to get the weather for") }),
});

async function chooseModel(): Promise<BaseChatModel> {
  const name = process.env.AGENTGRAPH_MODEL;
  if (name !== undefined && name !== "") {
    console.log(`Model: ${name}\n`);
    return (await initChatModel(name)) as unknown as BaseChatModel;
  }
  console.log(
    "Model: agentgraph's offline demo model — not a language model: it plays a scripted tool-calling\n" +
      "conversation so this example runs without a key. Set AGENTGRAPH_MODEL (e.g. openai:gpt-4.1-mini)\n" +
      "and the provider's API key, or OPENAI_BASE_URL for a local OpenAI-compatible server.\n",
  );
  return new DemoChatModel();
}

const dir = join(process.cwd(), ".agentgraph");
mkdirSync(dir, { recursive: true });
const checkpointer = SqliteSaver.fromConnString(join(dir, "weather.sqlite"));

const agent = createAgent({
  model: await chooseModel(),
  tools: [getWeather],
  systemPrompt: "You are a helpful assistant",
  checkpointer,
});

const question = process.argv.slice(2).join(" ") || "What is the weather in Suzhou?";
const config = { configurable: { thread_id: "weather-demo" } };
const before = await agent.getState(config);
const seen = (before.values as { messages?: unknown[] }).messages?.length ?? 0;

const stream = await agent.stream(
  { messages: [new HumanMessage(question)] },
  { ...config, streamMode: "values" },
);
let printed = seen;
for await (const step of stream) {
  const messages = (step as { messages: { prettyPrint(): void }[] }).messages;
  // print each message once, as the seed prints the last message of every step
  for (; printed < messages.length; printed++) messages[printed]?.prettyPrint();
}

const after = await agent.getState(config);
const history = (after.values as { messages: unknown[] }).messages.length;
console.log(
  `\nThread "weather-demo" now holds ${history} messages in ${join(".agentgraph", "weather.sqlite")}.`,
);
await checkpointer.close();
