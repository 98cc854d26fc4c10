import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AIMessage, HumanMessage, ToolMessage } from "../../messages/index.js";
import { ChatOpenAI } from "../../models/index.js";
import { createAgent } from "../create-agent.js";
import { fakeModel } from "../testing/fake-model.js";
import type { AnyNodeHook, HookFunction } from "../types.js";
import { OpenAIModerationError, openAIModerationMiddleware } from "./openai-moderation.js";

interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A local OpenAI-compatible endpoint: records requests and answers with queued JSON bodies. */
class ModerationServer {
  readonly requests: Recorded[] = [];
  private readonly queue: Array<{ body: unknown }> = [];
  private readonly server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      raw += chunk;
    });
    req.on("end", () => {
      this.requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: raw === "" ? undefined : JSON.parse(raw),
      });
      const reply = this.queue.shift();
      res.writeHead(reply === undefined ? 500 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply?.body ?? { error: { message: "no reply queued" } }));
    });
  });
  url = "";

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  reply(...replies: Array<{ body: unknown }>): void {
    this.queue.push(...replies);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let server: ModerationServer;
beforeEach(async () => {
  server = await new ModerationServer().start();
});
afterEach(async () => {
  await server.close();
});

const openai = () =>
  new ChatOpenAI({
    model: "gpt-4.1-mini",
    apiKey: "sk-test",
    configuration: { baseURL: `${server.url}/v1` },
  });

const flagged = (categories: Record<string, boolean>, scores: Record<string, number> = {}) => ({
  body: {
    id: "modr-1",
    model: "omni-moderation-latest",
    results: [{ flagged: true, categories, category_scores: scores, category_applied_input_types: {} }],
  },
});
const clean = { body: { id: "modr-2", results: [{ flagged: false, categories: {}, category_scores: {} }] } };

const hookOf = (hook: AnyNodeHook | undefined) =>
  (typeof hook === "function" ? hook : hook?.hook) as unknown as HookFunction;

describe("openAIModerationMiddleware", () => {
  it("sends { input, model } to POST /v1/moderations and ends the run on flagged input", async () => {
    server.reply(flagged({ "self-harm": true, "self-harm/intent": true, violence: false }));
    const model = fakeModel().respond(new AIMessage("never"));
    const agent = createAgent({ model, middleware: [openAIModerationMiddleware({ model: openai() })] });
    const result = await agent.invoke({ messages: [new HumanMessage("I want to harm myself")] });
    expect(server.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ["POST", "/v1/moderations", { input: "I want to harm myself", model: "omni-moderation-latest" }],
    ]);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(model.callCount).toBe(0);
    expect(result.messages.map((m) => [m.getType(), m.text])).toEqual([
      ["human", "I want to harm myself"],
      [
        "ai",
        "I'm sorry, but I can't comply with that request. It was flagged for self-harm, self-harm/intent.",
      ],
    ]);
  });

  it("checks the output after the model call", async () => {
    server.reply(clean, flagged({ violence: true, hate_speech: true }));
    const model = fakeModel().respond(new AIMessage("violent answer"));
    const agent = createAgent({
      model,
      middleware: [
        openAIModerationMiddleware({ model: openai(), moderationModel: "text-moderation-latest" }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("tell me")] });
    expect(server.requests.map((r) => r.body)).toEqual([
      { input: "tell me", model: "text-moderation-latest" },
      { input: "violent answer", model: "text-moderation-latest" },
    ]);
    expect(result.messages.at(-1)?.text).toBe(
      "I'm sorry, but I can't comply with that request. It was flagged for violence, hate speech.",
    );
  });

  it("replaces flagged tool results and input with the violation message", async () => {
    server.reply(flagged({ hate: true }, { hate: 0.9 }), flagged({ harassment: true }, { harassment: 0.5 }));
    const middleware = openAIModerationMiddleware({
      model: openai(),
      exitBehavior: "replace",
      checkToolResults: true,
      violationMessage: "Flagged {categories} {category_scores} ({original_content})",
    });
    const update = (await hookOf(middleware.beforeModel)(
      {
        messages: [
          new HumanMessage({ content: "user text", id: "h1" }),
          new AIMessage({
            content: "",
            id: "a1",
            tool_calls: [{ id: "1", name: "t", args: {}, type: "tool_call" }],
          }),
          new ToolMessage({ content: "tool text", tool_call_id: "1", id: "t1" }),
        ],
      },
      {} as never,
    )) as { messages: Array<HumanMessage | ToolMessage> };
    expect(update.messages.map((m) => [m.id, m.text])).toEqual([
      ["h1", 'Flagged harassment {\n  "harassment": 0.5\n} (user text)'],
      ["a1", ""],
      ["t1", 'Flagged hate {\n  "hate": 0.9\n} (tool text)'],
    ]);
    expect((update.messages[2] as ToolMessage).tool_call_id).toBe("1");
  });

  it("throws OpenAIModerationError with exitBehavior 'error'", async () => {
    server.reply(flagged({}));
    const middleware = openAIModerationMiddleware({ model: openai(), exitBehavior: "error" });
    const error = await Promise.resolve(
      hookOf(middleware.beforeModel)({ messages: [new HumanMessage("bad")] }, {} as never),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIModerationError);
    expect(error).toMatchObject({
      name: "OpenAIModerationError",
      stage: "input",
      content: "bad",
      message:
        "I'm sorry, but I can't comply with that request. It was flagged for OpenAI's safety policies.",
    });
    server.reply(flagged({ violence: true }));
    const agent = createAgent({ model: fakeModel(), middleware: [middleware] });
    const failed = await agent.invoke({ messages: [new HumanMessage("bad")] }).catch((e: unknown) => e);
    // a node hook's error reaches the caller as it was thrown, as in LangChain.js
    expect(failed).toBeInstanceOf(OpenAIModerationError);
    expect((failed as OpenAIModerationError).stage).toBe("input");
  });

  it("needs an OpenAI model whose client can moderate", async () => {
    const check = (model: object) =>
      Promise.resolve(
        hookOf(openAIModerationMiddleware({ model: model as never }).beforeModel)(
          { messages: [new HumanMessage("x")] },
          {} as never,
        ),
      ).catch((e: unknown) => (e as Error).message);
    expect(await check({ getName: () => "SomeOtherModel" })).toMatch(
      /^Model must be an OpenAI model to use moderation middleware\. Got: SomeOtherModel/,
    );
    expect(await check({ getName: () => "ChatOpenAI" })).toMatch(
      /^Model must support moderation to use moderation middleware\./,
    );
    const seen: unknown[] = [];
    const langchainStyle = {
      getName: () => "ChatOpenAI",
      _getClientOptions: () => ({ timeout: 1 }),
      client: {
        moderations: {
          create: async (...args: unknown[]) => {
            seen.push(args);
            return { results: [{ flagged: false, categories: {}, category_scores: {} }] };
          },
        },
      },
    };
    expect(await check(langchainStyle)).toBeUndefined();
    expect(seen).toEqual([[{ input: "x", model: "omni-moderation-latest" }, { timeout: 1 }]]);
    expect(openAIModerationMiddleware({ model: openai() }).name).toBe("OpenAIModerationMiddleware");
  });
});
