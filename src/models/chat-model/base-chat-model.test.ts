import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  isToolMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from "../../messages/index.js";
import {
  AbortError,
  type CallbackHandler,
  handOver,
  installAsyncContextStorage,
  invokeThen,
  runInAsyncContext,
} from "../../shared/index.js";
import { tool } from "../../tools/index.js";
import { OutputParserException } from "../errors/configuration-errors.js";
import { BaseChatModel } from "./base-chat-model.js";
import { ChatGenerationChunk } from "./chat-generation-chunk.js";
import type { ChatModelRun } from "./llm-run.js";
import type { BaseChatModelCallOptions, ChatResult } from "./types.js";

/** The scripted model of bench/lib/agent-workload.ts, written the LangChain.js way. */
class ScriptedToolModel extends BaseChatModel {
  turns: number;
  constructor(o: { turns: number }) {
    super({});
    this.turns = o.turns;
  }
  _llmType() {
    return "scripted-tool-model";
  }
  // Tools are fixed by the script; binding is a no-op. The model gives itself, as LangChain.js's
  // types allow (bindTools is declared to give a BoundChatModel, which the model itself is)
  override bindTools(_tools: unknown[], _kwargs?: unknown) {
    return this;
  }
  async _generate(messages: BaseMessage[]) {
    const turn = messages.filter((m) => isToolMessage(m)).length;
    const content = turn < this.turns ? `Step ${turn}` : "Final answer";
    const message =
      turn < this.turns
        ? new AIMessage({
            content,
            id: `ai-${turn}`,
            tool_calls: [
              { id: `call_${turn}`, name: "lookup", args: { query: `q${turn}` }, type: "tool_call" },
            ],
          })
        : new AIMessage({ content, id: `ai-${turn}` });
    return { generations: [{ text: content, message }] };
  }
}

/** Records what `_generate` receives. */
class RecordingModel extends BaseChatModel {
  readonly seen: Array<{ messages: BaseMessage[]; options: Record<string, unknown>; runManager: unknown }> =
    [];
  constructor(private readonly reply: AIMessage = new AIMessage("ok")) {
    super({});
  }
  _llmType() {
    return "recording";
  }
  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): Promise<ChatResult> {
    this.seen.push({ messages, options: options as Record<string, unknown>, runManager });
    return { generations: [{ text: this.reply.text, message: this.reply }] };
  }
}

/** Streams the LangChain.js way: yield, then report the token through the run manager. */
class TokenModel extends BaseChatModel {
  _llmType() {
    return "tokens";
  }
  async _generate(): Promise<ChatResult> {
    throw new Error("should stream");
  }
  override async *_streamResponseChunks(
    _m: BaseMessage[],
    _o: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ) {
    for (const token of ["A", "B", "C"]) {
      const chunk = new ChatGenerationChunk({ text: token, message: new AIMessageChunk({ content: token }) });
      yield chunk;
      await runManager?.handleLLMNewToken(token, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

function tokenRecorder(prefersStreaming = false) {
  const tokens: string[] = [];
  const ends: AIMessage[] = [];
  const starts: Array<{ tags: string[] | undefined; metadata: Record<string, unknown> | undefined }> = [];
  const handler: CallbackHandler = {
    lc_prefer_streaming: prefersStreaming,
    handleChatModelStart: (_llm, _messages, _runId, _parent, _extra, tags, metadata) =>
      starts.push({ tags, metadata }),
    handleLLMNewToken: (token) => tokens.push(token),
    handleLLMEnd: (output) => ends.push(output.generations[0]?.[0]?.message as AIMessage),
  };
  return { tokens, ends, starts, handler };
}

describe("BaseChatModel subclasses written for LangChain.js", () => {
  it("may answer from a _generate that is not async, and report its failures as rejections", async () => {
    class PlainModel extends BaseChatModel {
      constructor(private readonly fail: boolean) {
        super({});
      }
      _llmType() {
        return "plain";
      }
      // JavaScript subclasses sometimes return the result itself (or throw) instead of a promise
      _generate(): Promise<ChatResult> {
        if (this.fail) throw new Error("no answer");
        const message = new AIMessage({ content: "plain", id: "p-1" });
        return { generations: [{ text: "plain", message }] } as unknown as Promise<ChatResult>;
      }
    }
    const answer = await new PlainModel(false).invoke("hi");
    expect([answer.id, answer.content]).toEqual(["p-1", "plain"]);
    const failing = new PlainModel(true).invoke("hi");
    expect(failing).toBeInstanceOf(Promise);
    await expect(failing).rejects.toThrow("no answer");
  });

  it("run the benchmark's scripted model unchanged", async () => {
    const model = new ScriptedToolModel({ turns: 1 });
    expect(model.bindTools([])).toBe(model);
    const first = await model.invoke([new HumanMessage("go")]);
    expect(first).toBeInstanceOf(AIMessage);
    expect(first.tool_calls).toEqual([
      { id: "call_0", name: "lookup", args: { query: "q0" }, type: "tool_call" },
    ]);
    const second = await model.invoke([
      new HumanMessage("go"),
      first,
      new ToolMessage({ content: "r", tool_call_id: "call_0" }),
    ]);
    expect([second.id, second.content]).toEqual(["ai-1", "Final answer"]);
    const chunks: AIMessageChunk[] = [];
    for await (const c of await model.stream("go")) chunks.push(c);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.tool_call_chunks).toEqual([
      { name: "lookup", args: '{"query":"q0"}', id: "call_0", index: 0, type: "tool_call_chunk" },
    ]);
    expect(chunks[0]?.tool_calls).toEqual(first.tool_calls);
  });

  it("coerces inputs; gives id-less answers the run's id only when callbacks hear the call (LangChain.js)", async () => {
    const model = new RecordingModel();
    const reply = await model.invoke([["system", "Be brief."], { role: "user", content: "Hi" }]);
    const seen = model.seen[0]?.messages ?? [];
    expect(seen[0]).toBeInstanceOf(SystemMessage);
    expect(seen[1]).toBeInstanceOf(HumanMessage);
    expect(reply.id).toBeUndefined();
    expect(model.seen[0]?.runManager).toBeUndefined();
    // (each RecordingModel answers with one message object, which the call gives its id)
    const heard = await new RecordingModel().invoke("Hi", {
      callbacks: [{ handleChatModelStart: () => {} }],
    });
    expect(heard.id).toMatch(/^run-[0-9a-f-]{36}$/);
    const named = await new RecordingModel().invoke("Hi", {
      callbacks: [{ handleChatModelStart: () => {} }],
      runId: "r-1",
    });
    expect(named.id).toBe("run-r-1");
  });

  it("passes bound tools in OpenAI format as options.tools, with tool_choice", async () => {
    const model = new RecordingModel();
    const search = tool(async () => "", {
      name: "search",
      description: "Search.",
      schema: z.object({ q: z.string() }),
    });
    await model
      .bindTools([search], { tool_choice: "search", parallel_tool_calls: false })
      .invoke("x", { stop: ["!"] });
    expect(model.seen[0]?.options).toEqual({
      tools: [
        {
          type: "function",
          function: {
            name: "search",
            description: "Search.",
            parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
          },
        },
      ],
      tool_choice: "search",
      parallel_tool_calls: false,
      stop: ["!"],
      promptIndex: 0,
    });
  });

  it("withConfig merges tags and metadata under each call's own", async () => {
    const { starts, handler } = tokenRecorder();
    const model = new RecordingModel().withConfig({ tags: ["a"], metadata: { x: 1 }, callbacks: [handler] });
    await model.invoke("x", { tags: ["b"], metadata: { y: 2 } });
    expect(starts[0]?.tags).toEqual(["a", "b"]);
    expect(starts[0]?.metadata).toMatchObject({ x: 1, y: 2, ls_model_type: "chat" });
  });

  it("a second withConfig replaces the bound tags, metadata and callbacks (as RunnableBinding.withConfig)", async () => {
    const first = tokenRecorder();
    const second = tokenRecorder();
    const model = new RecordingModel()
      .withConfig({ tags: ["a"], metadata: { x: 1 }, callbacks: [first.handler] })
      .withConfig({ tags: ["b"], metadata: { y: 2 }, callbacks: [second.handler] });
    await model.invoke("x", { tags: ["c"] });
    expect(first.starts).toEqual([]);
    expect(second.starts[0]?.tags).toEqual(["b", "c"]);
    expect(second.starts[0]?.metadata).not.toHaveProperty("x");
    expect(second.starts[0]?.metadata).toMatchObject({ y: 2 });
  });

  it("reports LangChain.js's ls_* metadata: the provider from the class name, the integration tag", async () => {
    class ChatMyProvider extends RecordingModel {}
    class Streamy extends RecordingModel {}
    const { starts, handler } = tokenRecorder();
    await new ChatMyProvider().invoke("x", { callbacks: [handler], metadata: { ls_integration: "mine" } });
    await new Streamy().invoke("x", { callbacks: [handler], stop: ["!"] });
    expect(starts.map((start) => start.metadata)).toEqual([
      { ls_integration: "langchain_chat_model", ls_model_type: "chat", ls_provider: "MyProvider" },
      {
        ls_integration: "langchain_chat_model",
        ls_model_type: "chat",
        ls_provider: "Streamy",
        ls_stop: ["!"],
      },
    ]);
  });

  it("takes the provider from the model's own name, else its class's lc_name(); the run keeps the class's name", async () => {
    class ChatFooBar extends RecordingModel {
      static override lc_name() {
        return "ChatMyThing";
      }
    }
    class Named extends RecordingModel {
      name = "field-name";
    }
    const names: unknown[] = [];
    const handler: CallbackHandler = {
      handleChatModelStart: (llm, _messages, _runId, _parent, _extra, _tags, metadata) =>
        names.push([llm.id.at(-1), metadata?.ls_provider]),
    };
    await new ChatFooBar().invoke("x", { callbacks: [handler] });
    await new Named().invoke("x", { callbacks: [handler] });
    expect(names).toEqual([
      ["ChatMyThing", "MyThing"],
      ["Named", "field-name"],
    ]);
    expect(new Named().getName()).toBe("field-name");
  });

  it("reports configurable.model and the call's timeout in the start metadata, as LangChain.js's ensureConfig", async () => {
    // expected values: @langchain/core 1.4.0 (its `versions` key aside)
    const seen: unknown[] = [];
    const handler: CallbackHandler = {
      handleChatModelStart: (_llm, _messages, _runId, _parent, _extra, _tags, metadata) =>
        seen.push(metadata),
    };
    await new RecordingModel().invoke("x", { configurable: { model: "gpt-x" }, callbacks: [handler] });
    await new RecordingModel().invoke("x", { timeout: 3000, callbacks: [handler] });
    await new RecordingModel().invoke("x", {
      configurable: { model: "gpt-x" },
      metadata: { model: "mine" },
      callbacks: [handler],
    });
    expect(seen.map((m) => Object.keys(m as object))).toEqual([
      ["model", "ls_model_type", "ls_stop", "ls_provider", "ls_integration"],
      ["timeoutMs", "ls_model_type", "ls_stop", "ls_provider", "ls_integration"],
      ["model", "ls_model_type", "ls_stop", "ls_provider", "ls_integration"],
    ]);
    expect(
      seen.map((m) => [(m as Record<string, unknown>).model, (m as Record<string, unknown>).timeoutMs]),
    ).toEqual([
      ["gpt-x", undefined],
      [undefined, 3000],
      ["mine", undefined],
    ]);
  });

  it("getName takes a suffix; getLsParams lists ls_model_type, ls_stop, ls_provider (LangChain.js)", () => {
    // expected values: @langchain/core 1.4.0 (found by differential testing)
    class ChatMine extends RecordingModel {}
    const model = new ChatMine();
    expect(model.getName("Sfx")).toBe("ChatMineSfx");
    expect(Object.keys(model.getLsParams({}))).toEqual(["ls_model_type", "ls_stop", "ls_provider"]);
    expect(model.getLsParams({ stop: ["s"] })).toStrictEqual({
      ls_model_type: "chat",
      ls_stop: ["s"],
      ls_provider: "Mine",
    });
  });

  it("is serialized as LangChain.js serializes a model that does not opt in, in toJSON() and handleChatModelStart", async () => {
    const model = new RecordingModel();
    const serialized = {
      lc: 1,
      type: "not_implemented",
      id: ["langchain", "chat_models", "recording", "RecordingModel"],
    };
    expect(model.toJSON()).toEqual(serialized);
    expect(JSON.parse(JSON.stringify(model))).toEqual(serialized);
    const seen: unknown[] = [];
    await model.invoke("x", { callbacks: [{ handleChatModelStart: (llm) => seen.push(llm) }] });
    expect(seen).toEqual([serialized]);
    expect(model.lc_serializable).toBe(false);
    expect(model._modelType()).toBe("base_chat_model");
    expect(model.callKeys).toEqual([
      "stop",
      "timeout",
      "signal",
      "tags",
      "metadata",
      "callbacks",
      "outputVersion",
    ]);
  });

  it("withStructuredOutput defaults to function calling and validates the arguments", async () => {
    const answer = new AIMessage({
      content: "",
      tool_calls: [{ name: "extract", args: { name: "Ada", age: "36" }, id: "c1", type: "tool_call" }],
    });
    const model = new RecordingModel(answer);
    const coerced = await model
      .withStructuredOutput(z.object({ name: z.string(), age: z.coerce.number() }))
      .invoke("x");
    expect(coerced).toEqual({ name: "Ada", age: 36 });
    expect(model.seen[0]?.options.tool_choice).toBe("extract");
    await expect(
      model.withStructuredOutput(z.object({ age: z.number() })).invoke("x"),
    ).rejects.toBeInstanceOf(OutputParserException);
    // LangChain.js's texts open the errors
    await expect(model.withStructuredOutput(z.object({}), { name: "other" }).invoke("x")).rejects.toThrow(
      /^No tool call found with name other\. /,
    );
    const silent = new RecordingModel(new AIMessage("sorry"));
    await expect(silent.withStructuredOutput(z.object({})).invoke("x")).rejects.toThrow(
      /^No tool calls found in the response\. /,
    );
    expect(() => model.withStructuredOutput(z.object({}), { method: "jsonMode" })).toThrow(
      /^Base withStructuredOutput implementation only supports "functionCalling" as a method\. RecordingModel does not support withStructuredOutput method "jsonMode"/,
    );
    // as LangChain.js's base implementation, "jsonSchema" falls back to function calling
    await expect(
      model.withStructuredOutput(z.object({ name: z.string() }), { method: "jsonSchema" }).invoke("x"),
    ).resolves.toEqual({ name: "Ada" });
    const raw = await model
      .withStructuredOutput(z.object({ age: z.number() }), { includeRaw: true })
      .invoke("x");
    expect(raw.raw).toBe(answer);
    expect(raw.parsed).toBeNull();
    // LangChain.js answers { raw, parsed: null }: the error is readable but not a key
    expect(Object.keys(raw)).toEqual(["raw", "parsed"]);
    expect(raw).toEqual({ raw: answer, parsed: null });
    expect(raw.parsing_error).toBeInstanceOf(OutputParserException);
  });

  it("binds the tool in OpenAI's form, named extract unless given a name (LangChain.js's base implementation)", async () => {
    const model = new RecordingModel(
      new AIMessage({
        content: "",
        tool_calls: [
          { name: "Person", args: { n: 1 }, id: "c", type: "tool_call" },
          { name: "extract", args: { n: 2 }, id: "d", type: "tool_call" },
        ],
      }),
    );
    // a JSON Schema's title does not name the tool here (provider models take it)
    const result = await model
      .withStructuredOutput({ title: "Person", type: "object", properties: { n: { type: "number" } } })
      .invoke("x");
    expect(result).toEqual({ n: 2 });
    expect(model.seen[0]?.options.tools).toEqual([
      {
        type: "function",
        function: {
          name: "extract",
          description: "A function available to call.",
          parameters: { title: "Person", type: "object", properties: { n: { type: "number" } } },
        },
      },
    ]);
    const fromFunction = await model
      .withStructuredOutput({ name: "Person", description: "A person.", parameters: { type: "object" } })
      .invoke("x");
    expect(fromFunction).toEqual({ n: 1 });
    expect(model.seen[1]?.options.tools).toEqual([
      {
        type: "function",
        function: { name: "Person", description: "A person.", parameters: { type: "object" } },
      },
    ]);
  });

  it("names the tool after a JSON Schema's own name even when options.name is given (LangChain.js's base implementation)", async () => {
    // expected values: @langchain/core 1.4.0 (found by differential testing)
    const model = new RecordingModel(
      new AIMessage({
        content: "",
        tool_calls: [{ name: "named", args: { n: 1 }, id: "c", type: "tool_call" }],
      }),
    );
    const result = await model
      .withStructuredOutput(
        { name: "named", type: "object", properties: { n: { type: "number" } } },
        { name: "person" },
      )
      .invoke("x");
    expect(result).toEqual({ n: 1 });
    const tools = model.seen[0]?.options.tools as Array<{ function: { name: string } }>;
    expect(tools.map((t) => t.function.name)).toEqual(["named"]);
  });

  it("withStructuredOutput's stream() streams the model and yields the result once, as LangChain.js's base implementation", async () => {
    // expected values: @langchain/core 1.4.0, a custom model with _streamResponseChunks
    const calls: string[] = [];
    class StreamingExtractor extends BaseChatModel {
      _llmType() {
        return "streaming-extractor";
      }
      async _generate(): Promise<ChatResult> {
        calls.push("generate");
        throw new Error("should stream");
      }
      override async *_streamResponseChunks() {
        calls.push("stream");
        const pieces = ['{"name": "A', 'da", "ta', 'gs": [], "age": 1}'];
        for (const [i, args] of pieces.entries()) {
          const fragment = i === 0 ? { id: "c1", name: "extract" } : {};
          yield new ChatGenerationChunk({
            text: "",
            message: new AIMessageChunk({
              content: "",
              tool_call_chunks: [{ ...fragment, args, index: 0, type: "tool_call_chunk" }],
            }),
          });
        }
      }
    }
    const Person = z.object({ name: z.string(), tags: z.array(z.string()), age: z.number() });
    const values = [];
    for await (const value of await new StreamingExtractor({}).withStructuredOutput(Person).stream("x"))
      values.push(value);
    expect(values).toEqual([{ name: "Ada", tags: [], age: 1 }]);
    expect(calls).toEqual(["stream"]);
    const withRaw = [];
    const raw = new StreamingExtractor({}).withStructuredOutput(Person, { includeRaw: true });
    for await (const value of await raw.stream("x")) withRaw.push(value);
    expect(withRaw.map((value) => Object.keys(value))).toEqual([["raw"], ["parsed"]]);
    expect(withRaw[0]?.raw).toBeInstanceOf(AIMessage);
    expect(withRaw[0]?.raw.tool_calls).toEqual([
      { name: "extract", args: { name: "Ada", tags: [], age: 1 }, id: "c1", type: "tool_call" },
    ]);
    expect(withRaw[1]).toEqual({ parsed: { name: "Ada", tags: [], age: 1 } });
    expect(calls).toEqual(["stream", "stream"]);
  });
});

describe("BaseChatModel streaming and callbacks", () => {
  it("handleLLMEnd and handleLLMError get five arguments and the output always has an llmOutput key (LangChain.js)", async () => {
    class Plain extends BaseChatModel {
      constructor(private readonly outcome: ChatResult | Error) {
        super({});
      }
      _llmType() {
        return "plain";
      }
      async _generate(): Promise<ChatResult> {
        if (this.outcome instanceof Error) throw this.outcome;
        return this.outcome;
      }
      override async *_streamResponseChunks() {
        yield new ChatGenerationChunk({ text: "s", message: new AIMessageChunk("s") });
      }
    }
    const heard: unknown[][] = [];
    const handler: CallbackHandler = {
      handleLLMEnd: (...args: unknown[]) => heard.push(args),
      handleLLMError: (...args: unknown[]) => heard.push(args),
    };
    const answer = { text: "a", message: new AIMessage("a") };
    await new Plain({ generations: [answer] }).invoke("x", { callbacks: [handler] });
    await new Plain({ generations: [answer], llmOutput: { n: 1 } }).invoke("x", { callbacks: [handler] });
    for await (const _ of await new Plain({ generations: [] }).stream("x", { callbacks: [handler] })) {
      // drain
    }
    await expect(new Plain(new Error("bad")).invoke("x", { callbacks: [handler] })).rejects.toThrow("bad");
    expect(heard.map((args) => args.length)).toEqual([5, 5, 5, 5]);
    const outputs = heard.slice(0, 3).map((args) => args[0] as Record<string, unknown>);
    // `_generate` returned no llmOutput, then one; a stream without usage has none
    expect(outputs.map((output) => [Object.hasOwn(output, "llmOutput"), output.llmOutput])).toEqual([
      [true, undefined],
      [true, { n: 1 }],
      [true, undefined],
    ]);
    expect(heard.map((args) => args[4])).toEqual([undefined, undefined, undefined, undefined]);
    expect(heard[3]?.[0]).toBeInstanceOf(Error);
  });

  it("tells a handler without handleChatModelStart of the call through handleLLMStart, the prompt as one string", async () => {
    const seen: unknown[] = [];
    await new ScriptedToolModel({ turns: 0 }).invoke([new SystemMessage("be nice"), new HumanMessage("hi")], {
      callbacks: [
        {
          handleLLMStart: (llm, prompts, runId, _parent, _extra, tags) =>
            seen.push(["llm", llm.id.at(-1), prompts, typeof runId, tags]),
        },
        {
          handleChatModelStart: (_llm, messages) => seen.push(["chat", messages[0]?.length]),
          handleLLMStart: () => seen.push(["not told"]),
        },
      ],
    });
    expect(seen).toEqual([
      ["llm", "ScriptedToolModel", ["System: be nice\nHuman: hi"], "string", []],
      ["chat", 2],
    ]);
  });

  it("ends a streamed call as LangChain.js does: the joined ChatGenerationChunk, and tokenUsage from usage_metadata", async () => {
    class InfoModel extends BaseChatModel {
      _llmType() {
        return "info";
      }
      async _generate(): Promise<ChatResult> {
        throw new Error("should stream");
      }
      override async *_streamResponseChunks(_m: BaseMessage[], _o: unknown, runManager?: ChatModelRun) {
        const parts: Array<[string, Record<string, unknown> | undefined, AIMessageChunk]> = [
          ["T", undefined, new AIMessageChunk("a")],
          [
            "U",
            { finish_reason: "stop" },
            new AIMessageChunk({
              content: "b",
              usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
            }),
          ],
        ];
        for (const [text, generationInfo, message] of parts) {
          const chunk = new ChatGenerationChunk({
            text,
            message,
            ...(generationInfo ? { generationInfo } : {}),
          });
          yield chunk;
          await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
        }
      }
    }
    const seen: unknown[] = [];
    const handler: CallbackHandler = {
      handleLLMNewToken: (_t, _i, _r, _p, _tags, fields) => seen.push(["token", fields?.chunk]),
      handleLLMEnd: (output) => seen.push(["end", output]),
    };
    for await (const _ of await new InfoModel({}).stream("x", { callbacks: [handler] })) {
      // drain
    }
    const [t1, t2, end] = seen as [
      [string, unknown],
      [string, unknown],
      [string, { generations: unknown[][]; llmOutput: unknown }],
    ];
    // the model's own chunks reach the token callbacks
    expect(t1[1]).toBeInstanceOf(ChatGenerationChunk);
    expect((t2[1] as ChatGenerationChunk).generationInfo).toEqual({ finish_reason: "stop" });
    const generation = end[1].generations[0]?.[0] as ChatGenerationChunk;
    expect(generation).toBeInstanceOf(ChatGenerationChunk);
    expect(generation.text).toBe("TU");
    expect(generation.generationInfo).toEqual({ finish_reason: "stop" });
    expect(generation.message.content).toBe("ab");
    expect(end[1].llmOutput).toEqual({
      tokenUsage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
    });
  });

  it("ChatGenerationChunk.concat always gives an object generationInfo (as LangChain.js)", () => {
    const a = new ChatGenerationChunk({ text: "a", message: new AIMessageChunk("a") });
    const b = new ChatGenerationChunk({ text: "b", message: new AIMessageChunk("b") });
    expect(a.generationInfo).toBeUndefined();
    expect(a.concat(b).generationInfo).toEqual({});
  });

  it("reports each streamed chunk once even when the model reports tokens itself", async () => {
    const { tokens, ends, handler } = tokenRecorder();
    const chunks: AIMessageChunk[] = [];
    for await (const c of await new TokenModel({}).stream("x", { callbacks: [handler] })) chunks.push(c);
    expect(tokens).toEqual(["A", "B", "C"]);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0]?.id).toMatch(/^run-/);
    expect(ends.map((m) => [m.content, m.id])).toEqual([["ABC", chunks[0]?.id]]);
  });

  it("streams inside invoke for an lc_prefer_streaming handler", async () => {
    const { tokens, handler } = tokenRecorder(true);
    const reply = await new TokenModel({}).invoke("x", { callbacks: [handler] });
    expect(reply).toBeInstanceOf(AIMessage);
    expect(reply.content).toBe("ABC");
    expect(tokens).toEqual(["A", "B", "C"]);
  });

  it("reports only the tokens a model reports itself, and the joined chunks at the end (as LangChain.js)", async () => {
    class SilentTokenModel extends BaseChatModel {
      _llmType() {
        return "silent";
      }
      async _generate(): Promise<ChatResult> {
        throw new Error("should stream");
      }
      override async *_streamResponseChunks() {
        for (const token of ["A", "B", "C"]) {
          yield new ChatGenerationChunk({
            text: token,
            message: new AIMessageChunk({ content: token, id: "s-1" }),
          });
        }
      }
    }
    const { tokens, ends, handler } = tokenRecorder(true);
    const reply = await new SilentTokenModel({}).invoke("x", { callbacks: [handler] });
    expect(reply).toBeInstanceOf(AIMessage);
    expect([reply.content, reply.id]).toEqual(["ABC", "s-1"]);
    expect(tokens).toEqual([]);
    expect(ends.map((m) => [m.constructor.name, m.content, m.id])).toEqual([
      ["AIMessageChunk", "ABC", "s-1"],
    ]);
  });

  it("does not stream when streaming is disabled", async () => {
    const model = new RecordingModel();
    model.disableStreaming = true;
    const { handler, tokens } = tokenRecorder(true);
    await model.invoke("x", { callbacks: [handler] });
    expect(tokens).toEqual([]);
  });

  it("inherits callbacks, tags and metadata from the ambient config of a graph task", async () => {
    installAsyncContextStorage(new AsyncLocalStorage());
    const { starts, tokens, handler } = tokenRecorder(true);
    const reply = await runInAsyncContext(
      { callbacks: [handler], tags: ["node"], metadata: { langgraph_node: "agent" } },
      () => new TokenModel({}).invoke("x"),
    );
    expect(reply.content).toBe("ABC");
    expect(tokens).toEqual(["A", "B", "C"]);
    expect(starts[0]?.tags).toEqual(["node"]);
    expect(starts[0]?.metadata).toMatchObject({ langgraph_node: "agent" });
  });

  it("stops waiting for a model that ignores its signal", async () => {
    class Stuck extends BaseChatModel {
      _llmType() {
        return "stuck";
      }
      _generate(): Promise<ChatResult> {
        return new Promise(() => {});
      }
    }
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(new Stuck({}).invoke("x", { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    const already = AbortSignal.abort();
    await expect(new Stuck({}).invoke("x", { signal: already })).rejects.toThrow(
      "This operation was aborted",
    );
  });

  it("batch answers every input, at most maxConcurrency at a time", async () => {
    let running = 0;
    let peak = 0;
    class Slow extends BaseChatModel<BaseChatModelCallOptions> {
      _llmType() {
        return "slow";
      }
      async _generate(messages: BaseMessage[]): Promise<ChatResult> {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        const text = messages[0]?.text ?? "";
        return { generations: [{ text, message: new AIMessage(text) }] };
      }
    }
    const replies = await new Slow({}).batch(["a", "b", "c", "d"], { maxConcurrency: 2 });
    expect(replies.map((r) => r.content)).toEqual(["a", "b", "c", "d"]);
    expect(peak).toBe(2);
  });

  it("batch with returnExceptions gives a failed input its error in its place", async () => {
    class Picky extends BaseChatModel {
      _llmType() {
        return "picky";
      }
      async _generate(messages: BaseMessage[]): Promise<ChatResult> {
        const text = messages[0]?.text ?? "";
        if (text === "bad") throw new Error(`rejected ${text}`);
        return { generations: [{ text, message: new AIMessage(text) }] };
      }
    }
    const model = new Picky({});
    const replies = await model.batch(["a", "bad", "c"], {}, { returnExceptions: true });
    expect(replies.map((r) => (r instanceof Error ? r.message : r.content))).toEqual([
      "a",
      "rejected bad",
      "c",
    ]);
    await expect(model.batch(["a", "bad"])).rejects.toThrow("rejected bad");
    const bound = model.withConfig({ tags: ["t"] });
    const boundReplies = await bound.batch(["bad", "b"], undefined, { returnExceptions: true });
    expect(boundReplies.map((r) => (r instanceof Error ? r.message : r.content))).toEqual([
      "rejected bad",
      "b",
    ]);
    const retried = await model
      .withRetry({ stopAfterAttempt: 1 })
      .batch(["bad"], {}, { returnExceptions: true });
    expect(retried[0]).toBeInstanceOf(Error);
  });

  it("reports invocationParams() as the start event's invocation_params", async () => {
    class Params extends BaseChatModel {
      _llmType() {
        return "params";
      }
      override invocationParams(): Record<string, unknown> {
        return { model: "m-1" };
      }
      async _generate(): Promise<ChatResult> {
        return { generations: [{ text: "x", message: new AIMessage("x") }] };
      }
    }
    class Plain extends Params {
      override invocationParams(): Record<string, unknown> {
        return {};
      }
    }
    const extras: unknown[] = [];
    const callbacks: CallbackHandler[] = [
      { handleChatModelStart: (_s, _m, _r, _p, extra) => extras.push(extra) },
    ];
    await new Params({}).invoke("x", { stop: ["s"], callbacks });
    await new Plain({}).invoke("x", { stop: ["s"], callbacks });
    expect(extras).toEqual([
      { options: { stop: ["s"] }, invocation_params: { model: "m-1" }, batch_size: 1 },
      { options: { stop: ["s"] }, invocation_params: {}, batch_size: 1 },
    ]);
  });

  it("reports the generation's generationInfo to handleLLMEnd", async () => {
    class Meta extends BaseChatModel {
      _llmType() {
        return "meta";
      }
      async _generate(): Promise<ChatResult> {
        return {
          generations: [
            { text: "x", message: new AIMessage("x"), generationInfo: { finish_reason: "stop" } },
          ],
          llmOutput: { tokenUsage: { totalTokens: 3 } },
        };
      }
    }
    const ends: unknown[] = [];
    await new Meta({}).invoke("x", {
      callbacks: [
        {
          handleLLMEnd: (output) => ends.push(output.generations[0]?.[0]?.generationInfo),
        },
      ],
    });
    expect(ends).toEqual([{ finish_reason: "stop" }]);
  });

  it("merges generationInfo and llmOutput into response_metadata", async () => {
    class Meta extends BaseChatModel {
      _llmType() {
        return "meta";
      }
      async _generate(): Promise<ChatResult> {
        return {
          generations: [
            { text: "x", message: new AIMessage("x"), generationInfo: { finish_reason: "stop" } },
          ],
          llmOutput: { tokenUsage: { totalTokens: 3 } },
        };
      }
    }
    const reply = await new Meta({}).invoke("x");
    expect(reply.response_metadata).toEqual({ tokenUsage: { totalTokens: 3 }, finish_reason: "stop" });
  });

  it("reports every generation to handleLLMEnd, with its own text; llmOutput joins the metadata of a lone one only", async () => {
    // expected values: @langchain/core 1.4.0 (found by differential testing)
    class Several extends BaseChatModel {
      _llmType() {
        return "several";
      }
      async _generate(): Promise<ChatResult> {
        return {
          generations: [
            { text: "T", message: new AIMessage("first"), generationInfo: { finish_reason: "stop" } },
            {
              text: "second",
              message: new AIMessage({ content: "second", id: "m2" }),
              generationInfo: { x: 1 },
            },
            { text: "third", message: new AIMessage("third") },
          ],
          llmOutput: { model: "m" },
        };
      }
    }
    const ends: Array<{ generations: Array<Array<Record<string, unknown>>>; llmOutput?: unknown }> = [];
    let runId = "";
    const reply = await new Several({}).invoke("x", {
      callbacks: [
        {
          handleChatModelStart: (_llm, _messages, id) => {
            runId = id;
          },
          handleLLMEnd: (output) => ends.push(output as never),
        },
      ],
    });
    expect(reply.text).toBe("first");
    expect(reply.response_metadata).toEqual({ finish_reason: "stop" });
    const [end] = ends;
    expect(end?.llmOutput).toEqual({ model: "m" });
    const generations = end?.generations[0] ?? [];
    expect(generations.map((g) => g.text)).toEqual(["T", "second", "third"]);
    expect(generations.map((g) => g.generationInfo)).toEqual([
      { finish_reason: "stop" },
      { x: 1 },
      undefined,
    ]);
    const messages = generations.map((g) => g.message as AIMessage);
    expect(messages.map((m) => m.id)).toEqual([`run-${runId}`, "m2", `run-${runId}`]);
    expect(messages.map((m) => m.response_metadata)).toEqual([{ finish_reason: "stop" }, { x: 1 }, {}]);
  });

  it("gives _generate the promptIndex 0, as LangChain.js's generate() does", async () => {
    const model = new RecordingModel();
    await model.invoke("x", { stop: ["\n"] });
    expect(model.seen[0]?.options).toEqual({ stop: ["\n"], promptIndex: 0 });
  });

  it("_identifyingParams() is {} unless overridden (LangChain.js)", () => {
    expect(new RecordingModel()._identifyingParams()).toEqual({});
  });

  it("merges a streamed chunk's generationInfo into its response_metadata in stream() only, not when invoke streams", async () => {
    // expected values: @langchain/core 1.4.0 (found by differential testing)
    class InfoStream extends BaseChatModel {
      _llmType() {
        return "info";
      }
      async _generate(): Promise<ChatResult> {
        throw new Error("should stream");
      }
      override async *_streamResponseChunks() {
        yield new ChatGenerationChunk({
          text: "A",
          message: new AIMessageChunk({ content: "A", id: "s1" }),
          generationInfo: { finish_reason: "stop" },
        });
      }
    }
    const model = new InfoStream({});
    const streamed: AIMessageChunk[] = [];
    for await (const chunk of await model.stream("x")) streamed.push(chunk);
    expect(streamed.map((c) => c.response_metadata)).toEqual([{ finish_reason: "stop" }]);
    const { handler } = tokenRecorder(true);
    const reply = await model.invoke("x", { callbacks: [handler] });
    expect(reply.response_metadata).toEqual({});
  });
});

describe("BaseChatModel.getNumTokens", () => {
  class Echo extends BaseChatModel {
    _llmType() {
      return "echo";
    }
    async _generate(messages: BaseMessage[]): Promise<ChatResult> {
      const text = messages.at(-1)?.text ?? "";
      return { generations: [{ text, message: new AIMessage(text) }] };
    }
  }

  it("approximates four characters per token over the text of the content", async () => {
    const model = new Echo({});
    expect(await model.getNumTokens("")).toBe(0);
    expect(await model.getNumTokens("abcd")).toBe(1);
    expect(await model.getNumTokens("abcde")).toBe(2);
    expect(
      await model.getNumTokens([
        { type: "text", text: "abcd" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        { type: "text", text: "efgh" },
      ]),
    ).toBe(2);
    expect(await model.bindTools([]).getNumTokens("abcdefgh")).toBe(2);
  });

  it("lets a model be trimMessages' token counter, keeping tool-call groups whole", async () => {
    const history = [
      new SystemMessage({ content: "You are a helpful assistant", id: "s" }),
      new HumanMessage({ content: "What is the weather in Suzhou?", id: "h" }),
      new AIMessage({
        content: "",
        id: "a",
        tool_calls: [{ name: "get_weather", args: { city: "Suzhou" }, id: "c1", type: "tool_call" }],
      }),
      new ToolMessage({ content: "It's always sunny in Suzhou!", tool_call_id: "c1", id: "t" }),
      new AIMessage({ content: "Sunny.", id: "f" }),
    ];
    const model = new Echo({});
    // "Sunny." is 2 tokens, the tool result 7, the human turn 8, the system prompt 7.
    const ids = async (maxTokens: number) =>
      (await trimMessages(history, { maxTokens, tokenCounter: model, includeSystem: true })).map((m) => m.id);
    expect(await ids(9)).toEqual(["s", "f"]);
    expect(await ids(15)).toEqual(["s", "f"]);
    expect(await ids(16)).toEqual(["s", "a", "t", "f"]);
  });
});

describe("BaseChatModel outputVersion", () => {
  class Calls extends BaseChatModel {
    _llmType(): string {
      return "calls";
    }
    async _generate(): Promise<ChatResult> {
      const message = new AIMessage({
        content: "hello",
        tool_calls: [{ name: "f", args: { a: 1 }, id: "c1" }],
      });
      return { generations: [{ message, text: "hello" }] };
    }
  }

  it('answers with standard content blocks for "v1", as LangChain.js does', async () => {
    const reply = await new Calls({ outputVersion: "v1" }).invoke("hi");
    expect(reply.content).toEqual([
      { type: "text", text: "hello" },
      { type: "tool_call", id: "c1", name: "f", args: { a: 1 } },
    ]);
    expect(reply.response_metadata).toEqual({ output_version: "v1" });
    expect(reply.tool_calls).toEqual([{ name: "f", args: { a: 1 }, id: "c1" }]);
  });

  it('stream() with "v1" yields standard blocks but reports the chunks as yielded to handleLLMEnd (LangChain.js)', async () => {
    // expected values: @langchain/core 1.4.0 (found by differential testing)
    class V1Stream extends BaseChatModel {
      _llmType() {
        return "v1-stream";
      }
      async _generate(): Promise<ChatResult> {
        throw new Error("should stream");
      }
      override async *_streamResponseChunks() {
        for (const text of ["hel", "lo"])
          yield new ChatGenerationChunk({ text, message: new AIMessageChunk({ content: text, id: "s1" }) });
      }
    }
    const ends: unknown[] = [];
    const chunks: AIMessageChunk[] = [];
    const stream = await new V1Stream({ outputVersion: "v1" }).stream("x", {
      callbacks: [{ handleLLMEnd: (output) => ends.push(output.generations[0]?.[0]?.message) }],
    });
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.content)).toEqual([
      [{ type: "text", text: "hel" }],
      [{ type: "text", text: "lo" }],
    ]);
    const [end] = ends as AIMessageChunk[];
    expect(end).toBeInstanceOf(AIMessageChunk);
    expect(end?.content).toBe("hello");
    expect(end?.response_metadata).toEqual({});
  });

  it('defaults to "v0" and takes the version per call too', async () => {
    const model = new Calls({});
    expect(model.outputVersion).toBe("v0");
    expect((await model.invoke("hi")).content).toBe("hello");
    const reply = await model.invoke("hi", { outputVersion: "v1" });
    expect(reply.response_metadata.output_version).toBe("v1");
  });
});

describe("BaseChatModel input lists", () => {
  it("copies the list it is given, unless its caller handed it over", async () => {
    const model = new RecordingModel();
    const given = [new HumanMessage("hi")];
    await model.invoke(given);
    expect(model.seen[0]?.messages).not.toBe(given);
    expect(model.seen[0]?.messages).toEqual(given);
    const handed = handOver([new HumanMessage("again")]);
    await model.invoke(handed);
    expect(model.seen[1]?.messages).toBe(handed);
    // the mark is taken: the same list given again is copied
    await model.invoke(handed);
    expect(model.seen[2]?.messages).not.toBe(handed);
  });

  it("coerces each item unless the list was handed over as checked", async () => {
    const model = new RecordingModel();
    await model.invoke(handOver([{ role: "user", content: "plain" }] as never));
    expect(HumanMessage.isInstance(model.seen[0]?.messages[0])).toBe(true);
    // "checked" is the caller's word that every item is a message already (a merged history)
    const checked = [new HumanMessage("hi")];
    await model.invoke(handOver(checked, true));
    expect(model.seen[1]?.messages).toBe(checked);
  });
});

describe("invokeThen (the agent's model node's call)", () => {
  it("hands the answer to `then`, reports the call once, and keeps the caller's errors apart", async () => {
    const events: string[] = [];
    const handler = {
      handleChatModelStart: () => {
        events.push("start");
      },
      handleLLMEnd: () => {
        events.push("end");
      },
      handleLLMError: () => {
        events.push("error");
      },
    };
    const model = new RecordingModel(new AIMessage("hi"));
    const length = await invokeThen(model, "x", { callbacks: [handler] }, (answer) => {
      events.push("then");
      return String(answer.content).length;
    });
    expect(length).toBe(2);
    expect(events).toEqual(["start", "end", "then"]);

    // what `then` throws is the caller's: the model's callbacks do not hear it as the model's error
    events.length = 0;
    await expect(
      invokeThen(new RecordingModel(), "x", { callbacks: [handler] }, () => {
        throw new Error("caller broke");
      }),
    ).rejects.toThrow("caller broke");
    expect(events).toEqual(["start", "end"]);

    // the model's failure rejects without reaching `then`, and callbacks hear it
    class Failing extends RecordingModel {
      override async _generate(): Promise<ChatResult> {
        throw new Error("model broke");
      }
    }
    events.length = 0;
    let reached = false;
    await expect(
      invokeThen(new Failing(), "x", { callbacks: [handler] }, () => {
        reached = true;
      }),
    ).rejects.toThrow("model broke");
    expect(reached).toBe(false);
    expect(events).toEqual(["start", "error"]);
  });

  it("sends the call's failure to onError, reported once, and never `then`'s", async () => {
    const events: string[] = [];
    const handler = {
      handleChatModelStart: () => {
        events.push("start");
      },
      handleLLMError: () => {
        events.push("error");
      },
    };
    class Failing extends RecordingModel {
      override async _generate(): Promise<ChatResult> {
        throw new Error("model broke");
      }
    }
    const answer = await invokeThen(
      new Failing(),
      "x",
      { callbacks: [handler] },
      () => "then",
      (error) => `onError: ${(error as Error).message}`,
    );
    expect(answer).toBe("onError: model broke");
    expect(events).toEqual(["start", "error"]);
    let heard = false;
    await expect(
      invokeThen(
        new RecordingModel(),
        "x",
        {},
        () => {
          throw new Error("caller broke");
        },
        () => {
          heard = true;
        },
      ),
    ).rejects.toThrow("caller broke");
    expect(heard).toBe(false);
  });

  it("goes through a subclass's own invoke, and through bindTools' binding with its options", async () => {
    class Overriding extends RecordingModel {
      override invoke(): Promise<AIMessage> {
        return Promise.resolve(new AIMessage("from the override"));
      }
    }
    expect(await invokeThen(new Overriding(), "x", {}, (answer) => answer.content)).toBe("from the override");
    // an override that throws at once: its failure reaches onError, as a rejected call's does
    class Throwing extends RecordingModel {
      override invoke(): Promise<AIMessage> {
        throw new Error("no model here");
      }
    }
    const failed = await invokeThen(
      new Throwing(),
      "x",
      {},
      () => "answered",
      (error) => `failed: ${(error as Error).message}`,
    );
    expect(failed).toBe("failed: no model here");

    const model = new RecordingModel();
    const search = tool(async () => "", {
      name: "search",
      description: "Search.",
      schema: z.object({ q: z.string() }),
    });
    const bound = model.bindTools([search], { tool_choice: "search" });
    const content = await invokeThen(bound, "x", { stop: ["!"] }, (answer) => answer.content);
    expect(content).toBe("ok");
    expect(model.seen[0]?.options).toMatchObject({ tool_choice: "search", stop: ["!"] });
  });
});

describe("BaseChatModel: a handler with raiseError and awaitHandlers fails the call, as in LangChain.js", () => {
  /** A handler that opts in, failing in `method` (async, as a guardrail that looks up a budget), recording what it hears. */
  function guard(method: "handleChatModelStart" | "handleLLMEnd" | "handleLLMNewToken" | "handleLLMError") {
    const heard: string[] = [];
    const handler: CallbackHandler = { raiseError: true, awaitHandlers: true, lc_prefer_streaming: true };
    for (const name of [
      "handleChatModelStart",
      "handleLLMNewToken",
      "handleLLMEnd",
      "handleLLMError",
    ] as const) {
      (handler as Record<string, unknown>)[name] = async () => {
        heard.push(name);
        if (name === method) throw new Error(`over budget (${name})`);
      };
    }
    return { heard, handler };
  }

  it("fails invoke with the handler's own error, at the start (no _generate), at the end, or on a token", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const start = guard("handleChatModelStart");
      const model = new RecordingModel();
      await expect(model.invoke("hi", { callbacks: [start.handler] })).rejects.toThrow(
        "over budget (handleChatModelStart)",
      );
      expect(model.seen).toHaveLength(0);
      expect(start.heard).toEqual(["handleChatModelStart"]);

      // the end: the answer is not returned, and handleLLMError does not hear it (LangChain.js's _generate path)
      const end = guard("handleLLMEnd");
      const { lc_prefer_streaming: _, ...plain } = end.handler;
      await expect(new RecordingModel().invoke("hi", { callbacks: [plain] })).rejects.toThrow(
        "over budget (handleLLMEnd)",
      );
      expect(end.heard).toEqual(["handleChatModelStart", "handleLLMEnd"]);

      // a token reported by the model: its stream fails, and handleLLMError hears it
      const token = guard("handleLLMNewToken");
      await expect(new TokenModel({}).invoke("hi", { callbacks: [token.handler] })).rejects.toThrow(
        "over budget (handleLLMNewToken)",
      );
      expect(token.heard).toEqual(["handleChatModelStart", "handleLLMNewToken", "handleLLMError"]);

      // model.stream(): its end
      const streamed = guard("handleLLMEnd");
      const chunks: unknown[] = [];
      await expect(
        (async () => {
          for await (const chunk of await new TokenModel({}).stream("hi", { callbacks: [streamed.handler] }))
            chunks.push(chunk.content);
        })(),
      ).rejects.toThrow("over budget (handleLLMEnd)");
      expect(chunks).toEqual(["A", "B", "C"]);
      expect(error).toHaveBeenCalledWith(
        "Error in handler Handler, handleLLMEnd: Error: over budget (handleLLMEnd)",
      );
    } finally {
      error.mockRestore();
    }
  });

  it("with raiseError alone, logs and answers", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const end = guard("handleLLMEnd");
      const { awaitHandlers: _, lc_prefer_streaming: __, ...loud } = end.handler;
      const answer = await new RecordingModel().invoke("hi", { callbacks: [loud] });
      expect(answer.content).toBe("ok");
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(error).toHaveBeenCalledTimes(1);
    } finally {
      error.mockRestore();
    }
  });
});
