/**
 * The seeds' weather agent (seed 004) end to end: `createAgent` with `ChatOpenAI` talking HTTP to
 * a local OpenAI-compatible server that answers with the seed's two responses. The test checks
 * what the seed's request bodies show and the trace the seed prints.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../agents/index.js";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "../../../messages/index.js";
import { tool } from "../../../tools/index.js";
import { FixtureServer } from "../../__tests__/fixture-server.js";
import { ChatOpenAI } from "./chat-openai.js";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), "utf8"));

// The seed's tool: `def get_weather(city: str) -> str: """Get weather for a given city."""`.
const getWeather = tool(async ({ city }) => `It's always sunny in ${city}!`, {
  name: "get_weather",
  description: "Get weather for a given city.",
  schema: z.object({ city: z.string() }),
});

const CALL_ID = "call_cK9LgQ76xAalnjxUH1q945CM";
const FINAL =
  "The weather in **Suzhou** is currently **sunny** ☀️.\n\nIf you’d like more details—such as temperature, humidity, orr a multi-day forecast—just let me know!";

interface WireMessage {
  role: string;
  content: unknown;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}
interface WireRequest {
  model: string;
  stream: boolean;
  messages: WireMessage[];
  tools: unknown[];
}

const seedTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get weather for a given city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    },
  },
};

let server: FixtureServer;
beforeEach(async () => {
  server = await FixtureServer.start();
  server.reply(
    { kind: "json", body: fixture("seed-004-response-1") },
    { kind: "json", body: fixture("seed-004-response-2") },
  );
});
afterEach(async () => {
  await server.close();
});

function weatherAgent() {
  return createAgent({
    model: new ChatOpenAI({
      model: "gpt-5.2-chat",
      apiKey: "test",
      configuration: { baseURL: `${server.url}/v1` },
    }),
    tools: [getWeather],
    systemPrompt: "You are a helpful assistant",
  });
}

const bodies = (): WireRequest[] => server.requests.map((r) => r.body as WireRequest);

describe("the seeds' weather agent through ChatOpenAI over HTTP (seed 004)", () => {
  it("sends the seed's two requests and returns the seed's four messages", async () => {
    const result = await weatherAgent().invoke({
      messages: [new HumanMessage("What is the weather in Suzhou?")],
    });

    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/chat/completions",
      "POST /v1/chat/completions",
    ]);
    const [first, second] = bodies();
    if (first === undefined || second === undefined) throw new Error("expected two requests");

    // Request 1: system prompt first, then the question; the tool with its JSON Schema.
    expect(first.model).toBe("gpt-5.2-chat");
    expect(first.stream).toBe(false);
    expect(first.messages).toEqual([
      { role: "system", content: "You are a helpful assistant" },
      { role: "user", content: "What is the weather in Suzhou?" },
    ]);
    expect(first.tools).toEqual([seedTool]);
    expect(first).toEqual(fixture("seed-004-request-1"));

    // Request 2: the same system prompt (never stored), the assistant's tool call with the
    // model's id and arguments, then the tool's answer tied to that id.
    expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second.messages[0]).toEqual({ role: "system", content: "You are a helpful assistant" });
    expect(second.messages[1]).toEqual({ role: "user", content: "What is the weather in Suzhou?" });
    const assistant = second.messages[2];
    expect(assistant?.content).toBeNull();
    expect(assistant?.tool_calls).toHaveLength(1);
    expect(assistant?.tool_calls?.[0]).toMatchObject({
      type: "function",
      id: CALL_ID,
      function: { name: "get_weather" },
    });
    expect(JSON.parse(assistant?.tool_calls?.[0]?.function.arguments ?? "null")).toEqual({ city: "Suzhou" });
    expect(second.messages[3]).toEqual({
      role: "tool",
      content: "It's always sunny in Suzhou!",
      tool_call_id: CALL_ID,
    });
    expect(second.tools).toEqual([seedTool]);
    expect(second.model).toBe("gpt-5.2-chat");
    expect(second.stream).toBe(false);

    // The result: the whole conversation, without the system prompt.
    const messages = result.messages as BaseMessage[];
    expect(messages.map((m) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    const [, call, toolMessage, final] = messages;
    expect(call).toBeInstanceOf(AIMessage);
    expect((call as AIMessage).tool_calls).toEqual([
      { name: "get_weather", args: { city: "Suzhou" }, id: CALL_ID, type: "tool_call" },
    ]);
    expect(call?.id).toBe("chatcmpl-DG30m9xH7c6ujOxbuMIJ2cid9mU30");
    expect(toolMessage).toBeInstanceOf(ToolMessage);
    expect((toolMessage as ToolMessage).tool_call_id).toBe(CALL_ID);
    expect(toolMessage?.name).toBe("get_weather");
    expect(toolMessage?.text).toBe("It's always sunny in Suzhou!");
    expect(final?.text).toBe(FINAL);
    expect((final as AIMessage).tool_calls).toEqual([]);
    expect(final?.id).toBe("chatcmpl-DG3XJbOOkM3usPXR56MEVrlRrthMO");
  });

  it("streams values whose last messages pretty-print in the seed's layout", async () => {
    const stream = await weatherAgent().stream(
      { messages: [new HumanMessage("What is the weather in Suzhou?")] },
      { streamMode: "values" },
    );
    const printed: string[] = [];
    for await (const step of stream) {
      const last = (step as { messages: BaseMessage[] }).messages.at(-1);
      if (last !== undefined) printed.push(last.toFormattedString());
    }
    const trace = printed.join("\n");

    // The seed's printout (seed 004 §2) without its blank lines, which the article dropped.
    const seedLines = [
      "================================ Human Message =================================",
      "What is the weather in Suzhou?",
      "================================== Ai Message ==================================",
      "Tool Calls:",
      `get_weather (${CALL_ID})`,
      `Call ID: ${CALL_ID}`,
      "Args:",
      "city: Suzhou",
      "================================= Tool Message =================================",
      "Name: get_weather",
      "It's always sunny in Suzhou!",
      "================================== Ai Message ==================================",
      ...FINAL.split("\n").filter((line) => line !== ""),
    ];
    const ours = trace
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
    expect(ours).toEqual(seedLines);
    expect(printed).toHaveLength(4);
    // The exact text of the tool-call step, indentation included (LangChain.js's layout).
    expect(printed[1]).toBe(
      [
        "================================== Ai Message ==================================",
        "Tool Calls:",
        `  get_weather (${CALL_ID})`,
        ` Call ID: ${CALL_ID}`,
        "  Args:",
        "    city: Suzhou",
      ].join("\n"),
    );
  });

  it("examples/weather runs the same round trip through AGENTGRAPH_MODEL and OPENAI_BASE_URL", async () => {
    const example = fileURLToPath(new URL("../../../../examples/weather/index.ts", import.meta.url));
    const tsx = new URL("../../../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
    const cwd = mkdtempSync(join(tmpdir(), "agentgraph-weather-")); // the example's SQLite file goes here
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", tsx, "--conditions=source", example],
        {
          cwd,
          timeout: 60_000,
          env: {
            ...process.env,
            AGENTGRAPH_MODEL: "openai:gpt-5.2-chat",
            OPENAI_BASE_URL: `${server.url}/v1`,
            OPENAI_API_KEY: "test",
          },
        },
      );
      const [first, second] = bodies();
      if (first === undefined || second === undefined) throw new Error("expected two requests");
      expect(first.model).toBe("gpt-5.2-chat");
      expect(first.messages).toEqual([
        { role: "system", content: "You are a helpful assistant" },
        { role: "user", content: "What is the weather in Suzhou?" },
      ]);
      // The example documents its argument, so `city` has a description the seed's tool lacks.
      expect(first.tools).toMatchObject([
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Get weather for a given city.",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        },
      ]);
      expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
      expect(second.messages[2]?.tool_calls?.[0]?.id).toBe(CALL_ID);
      expect(JSON.parse(second.messages[2]?.tool_calls?.[0]?.function.arguments ?? "null")).toEqual({
        city: "Suzhou",
      });
      expect(second.messages[3]).toEqual({
        role: "tool",
        content: "It's always sunny in Suzhou!",
        tool_call_id: CALL_ID,
      });
      expect(stdout).toContain("Model: openai:gpt-5.2-chat");
      expect(stdout).toContain(`Call ID: ${CALL_ID}`);
      expect(stdout).toContain("The weather in **Suzhou** is currently **sunny** ☀️.");
      expect(stdout).toContain('Thread "weather-demo" now holds 4 messages');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 90_000);
});
