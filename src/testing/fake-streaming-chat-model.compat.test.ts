/**
 * `FakeStreamingChatModel` against LangChain.js's (`@langchain/core/utils/testing`, a dev
 * dependency): a ported test gets the same answers, chunks, token callbacks, bound tool
 * descriptors and errors. LangGraph.js (also a dev dependency) runs its fake in a graph's
 * `messages` stream mode next to ours.
 */
import * as lcMessages from "@langchain/core/messages";
import { FakeStreamingChatModel as LcFakeStreamingChatModel } from "@langchain/core/utils/testing";
import {
  START as LC_START,
  MessagesAnnotation as LcMessagesAnnotation,
  StateGraph as LcStateGraph,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MessagesAnnotation, START, StateGraph } from "../index.js";
import * as messages from "../messages/index.js";
import { FakeStreamingChatModel } from "./index.js";

type Messages = typeof messages | typeof lcMessages;
type Chunk = { content: unknown; tool_calls?: unknown; additional_kwargs?: unknown; id?: string | undefined };
type Binding = { config: { tools?: unknown } };
type Model = {
  invoke(input: unknown, options?: Record<string, unknown>): Promise<Chunk>;
  stream(input: unknown, options?: Record<string, unknown>): Promise<AsyncIterable<Chunk>>;
  bindTools(tools: unknown[]): Binding;
};
type Make = (fields: Record<string, unknown>) => Model;

const ours: Make = (fields) => new FakeStreamingChatModel(fields) as unknown as Model;
const theirs: Make = (fields) => new LcFakeStreamingChatModel(fields) as unknown as Model;
const sides: [Make, Messages][] = [
  [ours, messages],
  [theirs, lcMessages],
];

const lookupCall = { name: "lookup", args: { query: "x" }, id: "call_1", type: "tool_call" as const };

/** The same scripted fields, built from one side's message classes. */
function fields(m: Messages, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sleep: 0,
    responses: [new m.AIMessage("Hey!")],
    chunks: [
      new m.AIMessageChunk({ content: "Hel" }),
      new m.AIMessageChunk({ content: "lo", tool_calls: [lookupCall], additional_kwargs: { tag: 1 } }),
    ],
    ...extra,
  };
}

function shape(chunk: Chunk) {
  return {
    content: chunk.content,
    tool_calls: chunk.tool_calls,
    additional_kwargs: chunk.additional_kwargs,
    // `run-<run id>` (the call's), another id (the graph gives input messages one), or none
    idKind: chunk.id === undefined ? undefined : chunk.id.startsWith("run-") ? "run" : "other",
  };
}

async function streamed(model: Model, input: unknown, options?: Record<string, unknown>) {
  const out: ReturnType<typeof shape>[] = [];
  for await (const chunk of await model.stream(input, options)) out.push(shape(chunk));
  return out;
}

/** Runs `run` on both sides and expects the same result. */
async function same<T>(run: (make: Make, m: Messages) => Promise<T> | T): Promise<T> {
  const results: T[] = [];
  for (const [make, m] of sides) results.push(await run(make, m));
  expect(results[0]).toEqual(results[1]);
  return results[0] as T;
}

describe("FakeStreamingChatModel against LangChain.js's", () => {
  it("invokes alike: the first response's content and the first chunk's tool calls", async () => {
    const answer = await same(async (make, m) => {
      const withChunks = make(
        fields(m, { chunks: [new m.AIMessageChunk({ content: "", tool_calls: [lookupCall] })] }),
      );
      const echo = make({ sleep: 0 });
      const blocks = [{ type: "text", text: "b" }];
      return [
        shape(await withChunks.invoke("hi")),
        shape(await make(fields(m)).invoke("hi")),
        shape(await echo.invoke([new m.SystemMessage("sys"), new m.HumanMessage("question")])),
        shape(await echo.invoke([new m.HumanMessage({ content: blocks })])),
      ];
    });
    expect(answer[0]).toMatchObject({ content: "Hey!", tool_calls: [lookupCall] });
    expect(answer[2]?.content).toBe("sys");
  });

  it("streams the same chunks and reports the same tokens", async () => {
    const run = await same(async (make, m) => {
      const tokens: unknown[] = [];
      const handler = {
        handleLLMNewToken: (token: string, ...rest: unknown[]) => {
          const chunk = (rest[4] as { chunk?: { text?: string; message?: Chunk } } | undefined)?.chunk;
          tokens.push([token, chunk?.text, chunk?.message === undefined ? undefined : shape(chunk.message)]);
        },
      };
      const chunks = await streamed(make(fields(m)), "hi", { callbacks: [handler] });
      return { chunks, tokens };
    });
    expect(run.chunks.map((c) => c.content)).toEqual(["Hel", "lo"]);
    expect(run.tokens).toHaveLength(2);
  });

  it("streams the response, or the first input message, by characters", async () => {
    const run = await same(async (make, m) => {
      const tokens: string[] = [];
      const handler = { handleLLMNewToken: (token: string) => tokens.push(token) };
      return {
        response: await streamed(make({ sleep: 0, responses: [new m.AIMessage("Hey!")] }), "hi", {
          callbacks: [handler],
        }),
        echo: await streamed(make({ sleep: 0 }), [new m.HumanMessage("ab"), new m.HumanMessage("zz")]),
        blocks: await streamed(make({ sleep: 0, responses: [new m.AIMessage({ content: [] })] }), "hi"),
        tokens,
      };
    });
    expect(run.response.map((c) => c.content)).toEqual(["H", "e", "y", "!"]);
    expect(run.tokens).toEqual(["H", "e", "y", "!"]);
  });

  it("joins the streamed chunks to the same message", async () => {
    await same(async (make, m) => {
      let whole: { concat(other: unknown): unknown } & Chunk = new m.AIMessageChunk({ content: "" });
      for await (const chunk of await make(fields(m)).stream("hi"))
        whole = whole.concat(chunk) as typeof whole;
      return shape(whole);
    });
  });

  it("throws thrownErrorString alike", async () => {
    const errors = await same(async (make, m) => {
      const model = make(fields(m, { thrownErrorString: "boom" }));
      const failed = (promise: Promise<unknown>) =>
        promise.then(
          () => "no error",
          (e: Error) => [e.constructor.name, e.message],
        );
      return [
        await failed(model.invoke("hi")),
        await failed(streamed(model, "hi")),
        await failed(streamed(make({ sleep: 0, thrownErrorString: "bang" }), "hi")),
      ];
    });
    expect(errors[0]).toEqual(["Error", "boom"]);
  });

  it("stops at an aborted signal alike (the AbortError's message is each library's own)", async () => {
    const run = await same(async (make, m) => {
      const controller = new AbortController();
      const seen: unknown[] = [];
      const error = await (async () => {
        for await (const chunk of await make(fields(m, { chunks: [] })).stream("hi", {
          signal: controller.signal,
        })) {
          seen.push(chunk.content);
          if (seen.length === 2) controller.abort();
        }
      })().catch((e: Error) => e.name);
      const early = await streamed(make(fields(m)), "hi", { signal: AbortSignal.abort() }).catch(
        (e: Error) => e.name,
      );
      return { seen, error, early };
    });
    expect(run).toEqual({ seen: ["H", "e"], error: "AbortError", early: "AbortError" });
  });

  it("describes bound tools alike in every toolStyle", async () => {
    const parameters = { type: "object", properties: { query: { type: "string" } }, required: ["query"] };
    const specs = [
      { name: "lookup", description: "Looks something up.", schema: parameters },
      { name: "bare", schema: { type: "object", properties: {} } },
    ];
    for (const toolStyle of ["openai", "anthropic", "bedrock", "google"]) {
      await same((make) => make({ sleep: 0, toolStyle }).bindTools(specs).config.tools);
    }
    const unknownStyle = await same((make) => {
      try {
        return make({ sleep: 0, toolStyle: "cohere" }).bindTools(specs);
      } catch (e) {
        return (e as Error).message;
      }
    });
    expect(unknownStyle).toBe("Unsupported tool style: cohere");
  });

  it("describes zod schemas alike, minus $schema (and without closing the object)", () => {
    const spec = { name: "z", description: "Zod.", schema: z.object({ query: z.string() }) };
    for (const toolStyle of ["openai", "anthropic", "bedrock", "google"]) {
      const mine = JSON.stringify(ours({ sleep: 0, toolStyle }).bindTools([spec]).config.tools);
      const theirsTools = JSON.stringify(theirs({ sleep: 0, toolStyle }).bindTools([spec]).config.tools)
        .replace('"$schema":"https://json-schema.org/draft/2020-12/schema",', "")
        .replace(',"additionalProperties":false', "");
      expect(mine).toBe(theirsTools);
    }
  });

  it("answers alike once bound", async () => {
    await same(async (make, m) => {
      const bound = make(fields(m)).bindTools([
        { name: "t", description: "d", schema: {} },
      ]) as unknown as Model;
      return [shape(await bound.invoke("hi")), await streamed(bound, "hi")];
    });
  });

  it("streams the same message chunks in a graph's messages stream mode", async () => {
    const ourGraph = (model: Model) =>
      new StateGraph(MessagesAnnotation)
        .addNode("agent", async (state) => ({
          messages: [(await model.invoke(state.messages)) as messages.AIMessage],
        }))
        .addEdge(START, "agent")
        .compile();
    const theirGraph = (model: Model) =>
      new LcStateGraph(LcMessagesAnnotation)
        .addNode("agent", async (state) => ({
          messages: [(await model.invoke(state.messages)) as lcMessages.AIMessage],
        }))
        .addEdge(LC_START, "agent")
        .compile();
    const collect = async (stream: AsyncIterable<unknown>) => {
      const out: unknown[] = [];
      for await (const [mode, part] of stream as AsyncIterable<[string, unknown]>) {
        if (mode === "values") {
          const last = (part as { messages: Chunk[] }).messages.at(-1);
          out.push(["values", last === undefined ? undefined : shape(last)]);
        } else {
          const [message, metadata] = part as [Chunk, { langgraph_node: string }];
          out.push([message.constructor.name, shape(message), metadata.langgraph_node]);
        }
      }
      return out;
    };
    const mine: unknown[] = [];
    const theirsOut: unknown[] = [];
    for (const extra of [{}, { chunks: [] }]) {
      const ourModel = ours(fields(messages, extra));
      mine.push(
        await collect(
          await ourGraph(ourModel).stream(
            { messages: [new messages.HumanMessage("hi")] },
            { streamMode: ["messages", "values"] },
          ),
        ),
      );
      const theirModel = theirs(fields(lcMessages, extra));
      theirsOut.push(
        await collect(
          await theirGraph(theirModel).stream(
            { messages: [new lcMessages.HumanMessage("hi")] },
            { streamMode: ["messages", "values"] },
          ),
        ),
      );
    }
    expect(mine).toEqual(theirsOut);
    const byChunks = mine[0] as unknown[];
    expect(byChunks.filter((entry) => (entry as unknown[])[0] === "AIMessageChunk")).toHaveLength(2);
    expect(byChunks.at(-1)).toEqual([
      "values",
      { content: "Hello", tool_calls: [lookupCall], additional_kwargs: { tag: 1 }, idKind: "run" },
    ]);
    expect(
      (mine[1] as unknown[]).filter((entry) => (entry as unknown[])[0] === "AIMessageChunk"),
    ).toHaveLength(4);
  });
});
