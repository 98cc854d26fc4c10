import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AIMessage, HumanMessage, ToolMessage } from "../../../messages/index.js";
import { AbortError } from "../../../shared/index.js";
import { FixtureServer, openAIEvents } from "../../__tests__/fixture-server.js";
import { MissingApiKeyError } from "../../errors/configuration-errors.js";
import {
  ModelAuthenticationError,
  ModelCallError,
  ModelConnectionError,
  ModelNotFoundError,
  ModelRateLimitError,
  ModelTimeoutError,
} from "../../errors/model-call-error.js";
import { ChatOpenAI, type ChatOpenAIFields } from "./chat-openai.js";

let server: FixtureServer;
beforeEach(async () => {
  server = await FixtureServer.start();
});
afterEach(async () => {
  await server.close();
  vi.unstubAllEnvs();
});

function model(fields: ChatOpenAIFields = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-4.1-mini",
    apiKey: "sk-test",
    configuration: { baseURL: `${server.url}/v1` },
    ...fields,
  });
}

const ok = {
  kind: "json" as const,
  body: {
    id: "chatcmpl-ok",
    model: "m",
    choices: [{ index: 0, finish_reason: "stop", message: { content: "fine" } }],
  },
};

const errorBody = (message: string, type = "error") => ({ error: { message, type, code: null } });

describe("ChatOpenAI retries", () => {
  it("does not retry a 401 and says which key to fix", async () => {
    server.reply({
      kind: "json",
      status: 401,
      body: errorBody("Incorrect API key provided: sk-test.", "invalid_request_error"),
    });
    const error = await model({ maxRetries: 5 })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelAuthenticationError);
    expect(error).toBeInstanceOf(ModelCallError);
    const e = error as ModelAuthenticationError;
    expect(e.status).toBe(401);
    expect(e.code).toBe("MODEL_AUTHENTICATION");
    expect(e.isRetryable).toBe(false);
    expect(e.attempts).toBe(1);
    // Starts with @langchain/openai's message ("401 Incorrect API key provided: sk-test").
    expect(e.message).toBe(
      "401 Incorrect API key provided: sk-test. The API key was rejected: " +
        "check the `apiKey` option or the OPENAI_API_KEY environment variable.",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 429 after the retry-after-ms the server asks for, then succeeds", async () => {
    server.reply(
      {
        kind: "json",
        status: 429,
        headers: { "retry-after-ms": "120" },
        body: errorBody("Rate limit reached"),
      },
      ok,
    );
    const started = Date.now();
    const reply = await model().invoke("hi");
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(reply.content).toBe("fine");
    expect(server.requests).toHaveLength(2);
  });

  it("honours retry-after in seconds too", async () => {
    server.reply(
      { kind: "json", status: 429, headers: { "retry-after": "0.15" }, body: errorBody("slow down") },
      ok,
    );
    const started = Date.now();
    await model().invoke("hi");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(server.requests).toHaveLength(2);
  });

  it("gives up on repeated 429s with a ModelRateLimitError saying how many attempts were made", async () => {
    const limited = {
      kind: "json" as const,
      status: 429,
      headers: { "retry-after-ms": "5" },
      body: errorBody("Rate limit reached"),
    };
    server.reply(limited, limited);
    const error = await model({ maxRetries: 1 })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelRateLimitError);
    expect((error as ModelRateLimitError).attempts).toBe(2);
    expect((error as Error).message).toMatch(/^429 Rate limit reached[\s\S]*Gave up after 2 attempts/);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a 500 maxRetries times, then fails with a typed error", async () => {
    const failing = {
      kind: "json" as const,
      status: 500,
      headers: { "retry-after-ms": "5" },
      body: errorBody("The server had an error"),
    };
    server.reply(failing, failing, failing);
    const error = await model({ maxRetries: 2 })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    const e = error as ModelCallError;
    expect([e.status, e.attempts, e.isRetryable, e.provider]).toEqual([500, 3, true, "openai"]);
    expect(e.message).toBe(
      "500 The server had an error. The provider had a server error. " +
        "Gave up after 3 attempts (raise `maxRetries` to try longer).",
    );
    expect(server.requests).toHaveLength(3);
  });

  it("lets a call set its own maxRetries (bound or per call), as modelRetryMiddleware does", async () => {
    const failing = {
      kind: "json" as const,
      status: 500,
      headers: { "retry-after-ms": "1" },
      body: errorBody("The server had an error"),
    };
    server.reply(failing, failing, failing, failing);
    const once = await model({ maxRetries: 3 })
      .invoke("hi", { maxRetries: 0 } as never)
      .catch((e: unknown) => e);
    expect((once as ModelCallError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
    const bound = await model({ maxRetries: 3 })
      .withConfig({ maxRetries: 1 } as never)
      .invoke("hi")
      .catch((e: unknown) => e);
    expect((bound as ModelCallError).attempts).toBe(2);
    expect(server.requests).toHaveLength(3);
    // a client-side setting: never sent to the provider
    for (const request of server.requests) expect(request.body).not.toHaveProperty("maxRetries");
  });

  it("backs off exponentially when the server gives no hint", async () => {
    server.reply({ kind: "json", status: 503, body: errorBody("overloaded") }, ok);
    const started = Date.now();
    await model({ maxRetries: 1 }).invoke("hi");
    // First retry: 500 ms minus up to 25 % jitter.
    expect(Date.now() - started).toBeGreaterThanOrEqual(370);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry 400, 403, 404 or 422", async () => {
    server.reply(
      { kind: "json", status: 400, body: errorBody("Invalid 'messages'") },
      { kind: "json", status: 403, body: errorBody("Project does not have access") },
      { kind: "json", status: 404, body: errorBody("The model `gpt-nope` does not exist") },
      { kind: "json", status: 422, body: errorBody("Unprocessable") },
    );
    const errors = [];
    for (let i = 0; i < 4; i++)
      errors.push(
        await model({ maxRetries: 3 })
          .invoke("hi")
          .catch((e: unknown) => e),
      );
    expect(server.requests).toHaveLength(4);
    expect(errors[0]).toBeInstanceOf(ModelCallError);
    expect((errors[0] as ModelCallError).message).toContain(
      "The request was rejected; fix it before retrying.",
    );
    expect(errors[1]).toBeInstanceOf(ModelAuthenticationError);
    expect(errors[2]).toBeInstanceOf(ModelNotFoundError);
    expect((errors[2] as Error).message).toContain('Check the model name ("gpt-4.1-mini")');
    expect((errors[3] as ModelCallError).status).toBe(422);
  });

  it("honours x-should-retry: false on a 500", async () => {
    server.reply({
      kind: "json",
      status: 500,
      headers: { "x-should-retry": "false" },
      body: errorBody("no"),
    });
    await expect(model({ maxRetries: 3 }).invoke("hi")).rejects.toBeInstanceOf(ModelCallError);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a dropped connection", async () => {
    server.reply({ kind: "destroy" }, ok);
    const reply = await model({ maxRetries: 1 }).invoke("hi");
    expect(reply.content).toBe("fine");
    expect(server.requests).toHaveLength(2);
  });

  it("reports an unreachable server as a ModelConnectionError", async () => {
    const stopped = server;
    server = await FixtureServer.start();
    const url = `${stopped.url}/v1`;
    await stopped.close();
    const error = await new ChatOpenAI({
      model: "m",
      apiKey: "k",
      maxRetries: 0,
      configuration: { baseURL: url },
    })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelConnectionError);
    expect((error as Error).message).toContain(`Could not reach ${url}`);
  });

  it("does not retry a non-streamed request answered with an SSE stream: a TypeError, as @langchain/openai's", async () => {
    const events = openAIEvents([
      { id: "c", model: "m", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] },
    ]);
    server.reply({ kind: "sse", events }, { kind: "sse", events });
    const error = await model({ maxRetries: 2 })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    // @langchain/openai 1.6.0 says "Cannot read properties of undefined (reading 'message')"
    expect((error as Error).message).toBe(
      "The provider's answer to a non-streamed call has no `choices`: it sent text, not JSON (an event stream). Check that the base URL points at an OpenAI-compatible Chat Completions API and that the server honours `stream: false` (or set `streaming: true` to stream).",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("retries a streamed request that fails before the first chunk", async () => {
    server.reply(
      { kind: "json", status: 502, headers: { "retry-after-ms": "1" }, body: errorBody("bad gateway") },
      {
        kind: "sse",
        events: openAIEvents([
          { id: "c", model: "m", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] },
        ]),
      },
    );
    const chunks = [];
    for await (const c of await model().stream("hi")) chunks.push(c.text);
    expect(chunks.join("")).toBe("ok");
    expect(server.requests).toHaveLength(2);
  });

  it("turns an error event inside the stream into a ModelCallError", async () => {
    server.reply({
      kind: "sse",
      events: [
        {
          data: {
            id: "c",
            model: "m",
            choices: [{ index: 0, delta: { content: "par" }, finish_reason: null }],
          },
        },
        { data: { error: { message: "The server had an error while processing your request." } } },
      ],
    });
    const seen: string[] = [];
    const failure = (async () => {
      for await (const c of await model().stream("hi")) seen.push(c.text);
    })();
    await expect(failure).rejects.toThrow(
      /OpenAI reported an error while streaming: The server had an error/,
    );
    expect(seen).toEqual(["par"]);
    expect(server.requests).toHaveLength(1);
  });
});

describe("ChatOpenAI timeouts and aborts", () => {
  it("fails a request that gets no answer within `timeout` with ModelTimeoutError", async () => {
    server.reply({ kind: "hang" });
    const error = await model({ timeout: 100, maxRetries: 0 })
      .invoke("hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelTimeoutError);
    // @langchain/openai's text ("Request timed out."), then what to fix
    expect((error as Error).message).toMatch(/^Request timed out\. OpenAI did not respond within 100 ms/);
    // the attempt's own error, whose detail keeps one full stop
    expect(((error as Error).cause as Error).message).toMatch(
      /: Request was aborted\. Check that the server/,
    );
  });

  it("retries a timed-out attempt", async () => {
    server.reply({ kind: "hang" }, ok);
    const reply = await model({ timeout: 100, maxRetries: 1 }).invoke("hi");
    expect(reply.content).toBe("fine");
    expect(server.requests).toHaveLength(2);
  });

  it("an aborted signal stops the call at once and is never retried", async () => {
    server.reply({ kind: "hang" }, ok);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await model({ maxRetries: 3 })
      .invoke("hi", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    // what @langchain/openai throws for a non-streamed call aborted while its request is out
    expect((error as Error).name).toBe("AbortError");
    expect((error as Error).message).toBe("Request was aborted.");
    expect((error as Error).cause).toBe(controller.signal.reason);
    expect(server.requests).toHaveLength(1);
  });

  it("aborting mid-stream fails with the signal's reason's message, as @langchain/openai does", async () => {
    const chunk = (content: string) => ({
      id: "chatcmpl-s",
      object: "chat.completion.chunk",
      model: "m",
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
    });
    server.reply({ kind: "sse", events: openAIEvents([chunk("a"), chunk("b")]), hang: true });
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of await model().stream("hi", { signal: controller.signal })) {
        seen.push(c.text);
        if (c.text === "b") controller.abort("stop now");
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).message).toBe("stop now");
    expect(seen).toContain("b");
  });

  it("a signal aborted before the call, or a stream aborted, fails with the reason's message, as @langchain/openai's", async () => {
    const controller = new AbortController();
    controller.abort();
    const before = await model()
      .invoke("hi", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(before).toBeInstanceOf(AbortError);
    expect((before as Error).message).toBe("This operation was aborted");
    server.reply({ kind: "hang" });
    const streamed = await (async () => {
      for await (const _ of await model().stream("hi", { timeout: 80 })) {
        // nothing arrives
      }
    })().catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(AbortError);
    expect((streamed as Error).message).toBe("The operation was aborted due to timeout");
    expect(server.requests).toHaveLength(1);
  });

  it("the call option `timeout` bounds the whole call", async () => {
    server.reply({ kind: "hang" });
    const error = await model()
      .invoke("hi", { timeout: 80 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    // @langchain/openai's text for a non-streamed request aborted by the call's timeout
    expect((error as Error).message).toBe("Request was aborted.");
    expect(((error as Error).cause as Error).name).toBe("TimeoutError");
  });
});

describe("ChatOpenAI configuration errors", () => {
  it("needs an API key for api.openai.com and says where to put it", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("OPENAI_BASE_URL", "");
    const error = await new ChatOpenAI({ model: "gpt-4.1-mini" }).invoke("hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingApiKeyError);
    expect((error as Error).message).toContain("set the OPENAI_API_KEY environment variable");
  });

  it("needs no key for a local OpenAI-compatible server", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    server.reply(ok);
    const reply = await new ChatOpenAI({
      model: "llama3.1",
      configuration: { baseURL: `${server.url}/v1` },
    }).invoke("hi");
    expect(reply.content).toBe("fine");
  });

  it("reads OPENAI_BASE_URL", async () => {
    vi.stubEnv("OPENAI_BASE_URL", `${server.url}/v1`);
    server.reply(ok);
    await new ChatOpenAI({ model: "m", apiKey: "k" }).invoke("hi");
    expect(server.requests).toHaveLength(1);
  });

  it("reads OPENAI_API_BASE first, OPENAI_ORGANIZATION and a configuration.apiKey, as LangChain.js does", async () => {
    vi.stubEnv("OPENAI_API_BASE", `${server.url}/v1`);
    vi.stubEnv("OPENAI_BASE_URL", "http://127.0.0.1:9/elsewhere");
    vi.stubEnv("OPENAI_ORGANIZATION", "org-1");
    vi.stubEnv("OPENAI_API_KEY", "");
    server.reply(ok);
    await new ChatOpenAI({ model: "m", configuration: { apiKey: "sk-conf" } }).invoke("hi");
    expect(server.requests[0]?.headers["openai-organization"]).toBe("org-1");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-conf");
  });
});

describe("ChatOpenAI 400s as @langchain/openai words and codes them", () => {
  const call = (content: ToolMessage["content"]) => [
    new HumanMessage("Read /a.png"),
    new AIMessage({ content: "", tool_calls: [{ id: "call_1", name: "read_file", args: {} }] }),
    new ToolMessage({ tool_call_id: "call_1", content }),
  ];
  const hint = "Chat Completions does not support images in tool messages";

  it("adds the Responses API hint to a 400 for tool results with an image, streamed or not", async () => {
    const rejected = { kind: "json" as const, status: 400, body: errorBody("Invalid value: 'image'.") };
    server.reply(rejected, rejected, rejected, { kind: "json", status: 500, body: errorBody("down") });
    const image = [{ type: "image" as const, mimeType: "image/png", data: "AAA" }];
    const invoked = (await model({ maxRetries: 0 })
      .invoke(call(image))
      .catch((e: unknown) => e)) as Error;
    expect(invoked.message).toMatch(
      /^400 Invalid value: 'image'\.[\s\S]*\n\nChat Completions does not support/,
    );
    expect(invoked.message.split(hint)).toHaveLength(2);
    const streamed = (await model({ maxRetries: 0, streaming: true })
      .invoke(call(image))
      .catch((e: unknown) => e)) as Error;
    expect(streamed.message.split(hint)).toHaveLength(2);
    const text = (await model({ maxRetries: 0 })
      .invoke(call([{ type: "text", text: "42" }]))
      .catch((e: unknown) => e)) as Error;
    expect(text.message).not.toContain(hint);
    const other = (await model({ maxRetries: 0 })
      .invoke(call(image))
      .catch((e: unknown) => e)) as Error;
    expect(other.message).not.toContain(hint);
  });

  it("codes a 400 about tool_calls INVALID_TOOL_RESULTS", async () => {
    server.reply(
      {
        kind: "json",
        status: 400,
        body: errorBody("An assistant message with 'tool_calls' must be followed by …"),
      },
      { kind: "json", status: 400, body: errorBody("Unrecognized request argument") },
    );
    const tools = (await model({ maxRetries: 0 })
      .invoke("hi")
      .catch((e: unknown) => e)) as ModelCallError;
    expect(tools.lc_error_code).toBe("INVALID_TOOL_RESULTS");
    expect(tools.status).toBe(400);
    const other = (await model({ maxRetries: 0 })
      .invoke("hi")
      .catch((e: unknown) => e)) as ModelCallError;
    expect(other.lc_error_code).toBe("MODEL_CALL_FAILED");
  });
});
