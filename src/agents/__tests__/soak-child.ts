/**
 * The child process of agent.soak.test.ts: runs `createAgent` invocations in a loop (a scripted
 * model that calls one tool, then answers) and prints the heap used after forced GC at the
 * sample points, as one JSON line. Run with `node --expose-gc --import tsx --conditions=source`.
 *
 *   argv: <total invocations> <sample every N invocations> ["plain" | "middleware"]
 *
 * "middleware" adds a custom middleware with every kind of hook plus two built-ins, so their
 * per-run state (counters, wrapped handlers) is soaked too.
 */
import { z } from "zod";
import { AIMessage, type BaseMessage } from "../../messages/index.js";
import { BaseChatModel, type ChatResult } from "../../models/index.js";
import { tool } from "../../tools/index.js";
import { createAgent, createMiddleware, modelCallLimitMiddleware, toolRetryMiddleware } from "../index.js";

/** Never runs out: a tool call when the last message is the user's, an answer after the tool. */
class ScriptedModel extends BaseChatModel {
  _llmType(): string {
    return "soak-scripted";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = messages[messages.length - 1];
    const message =
      last?.getType() === "tool"
        ? new AIMessage(`The answer is: ${last.text}`)
        : new AIMessage({
            content: "",
            tool_calls: [{ name: "get_weather", args: { city: "Suzhou" }, id: "call_1", type: "tool_call" }],
          });
    return { generations: [{ text: message.text, message }] };
  }
}

const getWeather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
  name: "get_weather",
  description: "Get weather for a given city.",
  schema: z.object({ city: z.string() }),
});

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with node --expose-gc");

async function heapAfterGc(): Promise<number> {
  // several passes, letting finalizers and pending promise jobs run in between
  for (let i = 0; i < 4; i++) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

const total = Number(process.argv[2] ?? 10_000);
const every = Number(process.argv[3] ?? 1_000);

const withMiddleware = process.argv[4] === "middleware";
let hooks = 0;
const everyHook = createMiddleware({
  name: "EveryHook",
  beforeAgent: () => {
    hooks += 1;
  },
  beforeModel: () => undefined,
  afterModel: () => undefined,
  afterAgent: () => undefined,
  wrapModelCall: (request, handler) => handler({ ...request, systemPrompt: `${request.systemPrompt}!` }),
  wrapToolCall: (request, handler) => handler(request),
});

const agent = createAgent({
  model: new ScriptedModel({}),
  tools: [getWeather],
  systemPrompt: "You are a helpful assistant",
  middleware: withMiddleware
    ? [everyHook, modelCallLimitMiddleware({ runLimit: 5 }), toolRetryMiddleware({ maxRetries: 1 })]
    : [],
});

const samples: Array<{ invocations: number; heapUsed: number }> = [];
const started = Date.now();
for (let i = 1; i <= total; i++) {
  const result = await agent.invoke({ messages: [{ role: "user", content: `What is the weather? #${i}` }] });
  if (result.messages.length !== 4) throw new Error(`invocation ${i}: ${result.messages.length} messages`);
  if (i % every === 0) samples.push({ invocations: i, heapUsed: await heapAfterGc() });
}
if (withMiddleware && hooks !== total) throw new Error(`beforeAgent ran ${hooks} times, expected ${total}`);
console.log(JSON.stringify({ total, ms: Date.now() - started, samples }));
