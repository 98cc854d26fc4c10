import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AIMessage, HumanMessage } from "../../messages/index.js";
import { ChatAnthropic } from "../../models/index.js";
import { createAgent } from "../create-agent.js";
import { MiddlewareError } from "../errors.js";
import { createMiddleware } from "../middleware.js";
import { fakeModel } from "../testing/fake-model.js";
import {
  anthropicPromptCachingMiddleware,
  BedrockPromptCachingMiddlewareError,
  bedrockPromptCachingMiddleware,
  PromptCachingMiddlewareError,
} from "./prompt-caching.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A fake model that reports `name` as its class name (and `model` as its model id). */
function namedModel(name: string, modelId?: string) {
  const model = fakeModel().respond(new AIMessage("ok"));
  Object.assign(model, { getName: () => name, model: modelId });
  return model;
}

/** Records the model settings each call is made with. */
function spy() {
  const settings: Array<Record<string, unknown> | undefined> = [];
  const middleware = createMiddleware({
    name: "Spy",
    wrapModelCall: (request, handler) => {
      settings.push(request.modelSettings);
      return handler(request);
    },
  });
  return { settings, middleware };
}

const three = () => [new HumanMessage("a"), new AIMessage("b"), new HumanMessage("c")];

describe("anthropicPromptCachingMiddleware", () => {
  it("adds cache_control for an Anthropic model once the conversation is long enough", async () => {
    const { settings, middleware } = spy();
    const agent = createAgent({
      model: namedModel("ChatAnthropic"),
      middleware: [anthropicPromptCachingMiddleware({ ttl: "1h" }), middleware],
    });
    await agent.invoke({ messages: three() });
    expect(settings).toEqual([{ cache_control: { type: "ephemeral", ttl: "1h" } }]);
    const short = spy();
    await createAgent({
      model: namedModel("ChatAnthropic"),
      middleware: [anthropicPromptCachingMiddleware(), short.middleware],
    }).invoke({ messages: [new HumanMessage("a"), new AIMessage("b")] });
    expect(short.settings).toEqual([undefined]);
  });

  it("counts the system prompt, and reads its options from the context", async () => {
    const { settings, middleware } = spy();
    const agent = createAgent({
      model: namedModel("ChatAnthropic"),
      systemPrompt: "s",
      middleware: [anthropicPromptCachingMiddleware({ minMessagesToCache: 3 }), middleware],
    });
    await agent.invoke({ messages: [new HumanMessage("a"), new AIMessage("b")] });
    expect(settings).toEqual([{ cache_control: { type: "ephemeral", ttl: "5m" } }]);
    const off = spy();
    await createAgent({
      model: namedModel("ChatAnthropic"),
      middleware: [anthropicPromptCachingMiddleware(), off.middleware],
    }).invoke({ messages: three() }, { context: { enableCaching: false } });
    expect(off.settings).toEqual([undefined]);
  });

  it("warns, ignores or raises for other models", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await createAgent({
      model: namedModel("ChatOpenAI"),
      middleware: [anthropicPromptCachingMiddleware()],
    }).invoke({
      messages: three(),
    });
    expect(warn.mock.calls[0]?.[0]).toBe(
      "PromptCachingMiddleware: Skipping caching for ChatOpenAI. Consider switching to an Anthropic model for caching benefits.",
    );
    const error = await createAgent({
      model: namedModel("ChatOpenAI"),
      middleware: [anthropicPromptCachingMiddleware({ unsupportedModelBehavior: "raise" })],
    })
      .invoke({ messages: three() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as MiddlewareError).cause).toBeInstanceOf(PromptCachingMiddlewareError);
    expect((error as MiddlewareError).cause).toHaveProperty(
      "message",
      "Unsupported model 'ChatOpenAI'. Prompt caching requires an Anthropic model (e.g., 'anthropic:claude-4-0-sonnet').",
    );
    expect(anthropicPromptCachingMiddleware().name).toBe("PromptCachingMiddleware");
  });
});

describe("bedrockPromptCachingMiddleware", () => {
  it("adds cache_control for Bedrock Converse Claude and Nova models", async () => {
    const { settings, middleware } = spy();
    for (const id of ["us.anthropic.claude-haiku-4-5", "amazon.nova-pro-v1:0"]) {
      await createAgent({
        model: namedModel("ChatBedrockConverse", id),
        middleware: [bedrockPromptCachingMiddleware(), middleware],
      }).invoke({ messages: [new HumanMessage("a")] });
    }
    expect(settings).toEqual([
      { cache_control: { type: "ephemeral", ttl: "5m" } },
      { cache_control: { type: "ephemeral", ttl: "5m" } },
    ]);
    expect(bedrockPromptCachingMiddleware().name).toBe("BedrockPromptCachingMiddleware");
  });

  it("raises with LangChain.js's texts for unsupported models", async () => {
    const run = (name: string, id?: string) =>
      createAgent({
        model: namedModel(name, id),
        middleware: [bedrockPromptCachingMiddleware({ unsupportedModelBehavior: "raise" })],
      })
        .invoke({ messages: [new HumanMessage("a")] })
        .catch((e: unknown) => (e as MiddlewareError).cause);
    const llama = await run("ChatBedrockConverse", "meta.llama3");
    expect(llama).toBeInstanceOf(BedrockPromptCachingMiddlewareError);
    expect((llama as Error).message).toBe(
      "Unsupported model 'ChatBedrockConverse'. Bedrock prompt caching is only supported on Anthropic Claude and Amazon Nova models (e.g., 'bedrock:anthropic.claude-haiku-4-5-20251001-v1:0').",
    );
    expect(((await run("ChatAnthropic")) as Error).message).toBe(
      "Unsupported model 'ChatAnthropic'. Prompt caching requires an AWS Bedrock Converse model (e.g., 'bedrock:anthropic.claude-haiku-4-5-20251001-v1:0').",
    );
  });
});

describe("anthropicPromptCachingMiddleware with ChatAnthropic", () => {
  it("reaches the Messages API request as its top-level cache_control", async () => {
    const bodies: unknown[] = [];
    const server = createServer((req, res) => {
      let text = "";
      req.on("data", (part) => {
        text += part;
      });
      req.on("end", () => {
        bodies.push(JSON.parse(text));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-6",
            content: [{ type: "text", text: "cached" }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 3, output_tokens: 1 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const model = new ChatAnthropic({
        model: "claude-sonnet-4-6",
        apiKey: "sk-ant-test",
        clientOptions: { baseURL: url },
        maxRetries: 0,
      });
      const agent = createAgent({
        model,
        systemPrompt: "Long instructions.",
        middleware: [anthropicPromptCachingMiddleware({ ttl: "1h", minMessagesToCache: 1 })],
      });
      const out = await agent.invoke({ messages: [new HumanMessage("hi")] });
      expect(out.messages.at(-1)?.text).toBe("cached");
      expect((bodies[0] as { cache_control?: unknown }).cache_control).toEqual({
        type: "ephemeral",
        ttl: "1h",
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
