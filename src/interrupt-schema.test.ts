/**
 * interrupt(value, { responseSchema }), invalid resumes, strict resume (UnknownInterruptError),
 * and the small error and schema helpers LangGraph.js 1.7.3 exports. Expected values:
 * @langchain/langgraph 1.7.3 (probes /tmp/peerbench/probe-helperB/int1.ts, int2.ts, strict.ts,
 * misc.ts).
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { SqliteSaver } from "./checkpoint/sqlite/index.js";
import {
  _markInvalidResume,
  Annotation,
  type BaseCheckpointSaver,
  BaseLangGraphError,
  COMMAND_SYMBOL,
  Command,
  CommandInstance,
  END,
  getJsonSchemaFromSchema,
  interrupt,
  isInvalidResume,
  isSerializableSchema,
  isUnknownInterruptError,
  MemorySaver,
  MultipleSubgraphsError,
  RemoteException,
  START,
  StateGraph,
  UnknownInterruptError,
} from "./index.js";

interface Pending {
  id: string;
  value: unknown;
  response_schema?: Record<string, unknown>;
}

const interruptsOf = (result: unknown): Pending[] =>
  (result as { __interrupt__?: Pending[] }).__interrupt__ ?? [];

const ApprovalSchema = z.object({ approved: z.boolean(), note: z.string().default("none") });
const APPROVAL_JSON = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { approved: { type: "boolean" }, note: { default: "none", type: "string" } },
  required: ["approved", "note"],
  additionalProperties: false,
};
const PLAIN_JSON = { type: "object", properties: { x: { type: "number" } }, required: ["x"] };

const LogState = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a: string[], b: string[]) => a.concat(b), default: () => [] }),
});

describe("interrupt(value, { responseSchema })", () => {
  function approvalGraph() {
    const State = Annotation.Root({
      answer: Annotation<unknown>(),
      other: Annotation<number>({ reducer: (a: number, b: number) => a + b, default: () => 0 }),
    });
    const runs = { side: 0 };
    const graph = new StateGraph(State)
      .addNode("ask", () => ({ answer: interrupt({ q: "approve?" }, { responseSchema: ApprovalSchema }) }))
      .addNode("ask2", () => ({ answer: interrupt("json?", { responseSchema: PLAIN_JSON }) }))
      .addNode("side", async () => {
        runs.side += 1;
        return { other: 1 };
      })
      .addEdge(START, "ask")
      .addEdge(START, "side")
      .addEdge("ask", "ask2")
      .addEdge("ask2", END)
      .addEdge("side", END)
      .compile({ checkpointer: new MemorySaver() });
    return { graph, runs };
  }

  it("puts the schema as JSON Schema on the interrupt, in the result and in getState", async () => {
    const { graph } = approvalGraph();
    const config = { configurable: { thread_id: "t" } };
    const result = await graph.invoke({}, config);
    const [pending] = interruptsOf(result);
    expect(pending?.value).toEqual({ q: "approve?" });
    expect(pending?.response_schema).toEqual(APPROVAL_JSON);
    expect(Object.keys(pending ?? {})).toEqual(["id", "value", "response_schema"]);
    const state = await graph.getState(config);
    expect(state.tasks.map((t) => [t.name, t.interrupts])).toEqual([
      ["ask", [pending]],
      ["side", []],
    ]);
  });

  it("rejects an answer the Zod schema refuses, keeps the interrupt pending, and takes a new answer parsed", async () => {
    const { graph, runs } = approvalGraph();
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({}, config);
    let error: unknown;
    try {
      await graph.invoke(new Command({ resume: { approved: "yes" } }), config);
    } catch (e) {
      error = e;
    }
    expect(isInvalidResume(error)).toBe(true);
    expect((error as { issues: unknown[] }).issues).toEqual([
      {
        expected: "boolean",
        code: "invalid_type",
        path: ["approved"],
        message: "Invalid input: expected boolean, received string",
      },
    ]);
    expect((error as Error).message).toBe(JSON.stringify((error as { issues: unknown[] }).issues, null, 2));
    const state = await graph.getState(config);
    expect(state.values).toEqual({ other: 1 });
    expect(state.next).toEqual(["ask"]);
    const ask = state.tasks.find((t) => t.name === "ask");
    expect(ask?.interrupts.map((i) => i.response_schema)).toEqual([APPROVAL_JSON]);
    expect(ask?.error).toBeDefined();

    const next = await graph.invoke(new Command({ resume: { approved: true } }), config);
    expect(next.answer).toEqual({ approved: true, note: "none" });
    expect(next.other).toBe(1);
    expect(runs.side).toBe(1);
    // a JSON Schema is shown, not enforced
    expect(interruptsOf(next).map((i) => [i.value, i.response_schema])).toEqual([["json?", PLAIN_JSON]]);
    const last = await graph.invoke(new Command({ resume: { x: "not a number" } }), config);
    expect(last).toEqual({ answer: { x: "not a number" }, other: 1 });
  });

  it("types what it returns by a Standard Schema responseSchema (the schema's output)", () => {
    const typed = () => interrupt({ q: "approve?" }, { responseSchema: ApprovalSchema });
    expectTypeOf(typed).returns.toEqualTypeOf<{ approved: boolean; note: string }>();
    const json = () => interrupt("json?", { responseSchema: PLAIN_JSON });
    expectTypeOf(json).returns.toBeUnknown();
    const explicit = () => interrupt<string, { ok: boolean }>("ok?");
    expectTypeOf(explicit).returns.toEqualTypeOf<{ ok: boolean }>();
  });

  it("streams the schema with the interrupt", async () => {
    const graph = new StateGraph(Annotation.Root({ answer: Annotation<unknown>() }))
      .addNode("ask", () => ({ answer: interrupt("v", { responseSchema: z.string() }) }))
      .addEdge(START, "ask")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "u" } };
    const chunks: unknown[] = [];
    for await (const chunk of await graph.stream({}, { ...config, streamMode: ["updates", "values"] })) {
      chunks.push(chunk);
    }
    const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "string" };
    expect(chunks).toEqual([
      ["updates", { __interrupt__: [{ id: expect.any(String), value: "v", response_schema: schema }] }],
      ["values", { __interrupt__: [{ id: expect.any(String), value: "v", response_schema: schema }] }],
    ]);
    await expect(graph.invoke(new Command({ resume: 5 }), config)).rejects.toSatisfy(isInvalidResume);
    expect(await graph.invoke(new Command({ resume: "ok" }), config)).toEqual({ answer: "ok" });
  });

  it.each([
    ["MemorySaver", (): BaseCheckpointSaver => new MemorySaver()],
    ["SqliteSaver", (): BaseCheckpointSaver => SqliteSaver.fromConnString(":memory:")],
  ])("lets the step's other tasks finish when one answer is invalid (%s)", async (_name, makeSaver) => {
    const runs = { a1: 0, a2: 0 };
    const graph = new StateGraph(LogState)
      .addNode("a1", (_s, config) => {
        runs.a1 += 1;
        const v = config.interrupt?.("q1", { responseSchema: z.number() });
        return { log: [`a1:${String(v)}`] };
      })
      .addNode("a2", async () => {
        runs.a2 += 1;
        const v = interrupt("q2", { responseSchema: z.string() });
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { log: [`a2:${String(v)}`] };
      })
      .addEdge(START, "a1")
      .addEdge(START, "a2")
      .addEdge("a1", END)
      .addEdge("a2", END)
      .compile({ checkpointer: makeSaver() });
    const config = { configurable: { thread_id: "t" } };
    const first = await graph.invoke({ log: [] }, config);
    const ids = Object.fromEntries(interruptsOf(first).map((i) => [i.value, i.id]));
    expect(interruptsOf(first).map((i) => i.response_schema?.type)).toEqual(["number", "string"]);
    await expect(
      graph.invoke(
        new Command({ resume: { [ids.q1 as string]: "bad", [ids.q2 as string]: "good" } }),
        config,
      ),
    ).rejects.toSatisfy(isInvalidResume);
    expect(runs).toEqual({ a1: 2, a2: 2 });
    const state = await graph.getState(config);
    expect(state.values).toEqual({ log: ["a2:good"] });
    expect(state.next).toEqual(["a1"]);
    expect(state.tasks.map((t) => [t.name, t.interrupts.map((i) => i.value), Boolean(t.error)])).toEqual([
      ["a1", ["q1"], true],
      ["a2", ["q2"], false],
    ]);
    const done = await graph.invoke(new Command({ resume: { [ids.q1 as string]: 7 } }), config);
    expect(done).toEqual({ log: ["a1:7", "a2:good"] });
    expect(runs).toEqual({ a1: 3, a2: 2 });
  });
});

describe("strict resume (configurable.__pregel_strict_resume)", () => {
  async function pausedGraph() {
    const graph = new StateGraph(LogState)
      .addNode("a1", () => ({ log: [`a1:${String(interrupt("q1"))}`] }))
      .addNode("a2", () => {
        const x = interrupt("q2");
        const y = interrupt("q2b");
        return { log: [`a2:${String(x)}:${String(y)}`] };
      })
      .addEdge(START, "a1")
      .addEdge(START, "a2")
      .addEdge("a1", END)
      .addEdge("a2", END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t", __pregel_strict_resume: true } };
    const first = await graph.invoke({}, config);
    const ids = Object.fromEntries(interruptsOf(first).map((i) => [i.value, i.id])) as Record<string, string>;
    return { graph, config, ids };
  }

  async function refusal(run: Promise<unknown>): Promise<UnknownInterruptError> {
    try {
      await run;
    } catch (error) {
      expect(isUnknownInterruptError(error)).toBe(true);
      expect(error).toBeInstanceOf(UnknownInterruptError);
      return error as UnknownInterruptError;
    }
    throw new Error("expected an UnknownInterruptError");
  }

  it("refuses ambiguous, empty and unknown resumes before writing anything", async () => {
    const { graph, config, ids } = await pausedGraph();
    const pending = [ids.q1, ids.q2].sort();
    const unknownId = "0123456789abcdef0123456789abcdef";

    const ambiguous = await refusal(graph.invoke(new Command({ resume: "x" }), config));
    expect([ambiguous.reason, ambiguous.interruptIds, ambiguous.pendingIds]).toEqual([
      "ambiguous",
      [],
      pending,
    ]);
    expect(ambiguous.message).toMatch(
      /^When there are multiple pending interrupts, you must specify the interrupt id when resuming\./,
    );
    const notMap = await refusal(graph.invoke(new Command({ resume: { foo: 1 } }), config));
    expect(notMap.reason).toBe("ambiguous");

    const empty = await refusal(graph.invoke(new Command({ resume: {} }), config));
    expect([empty.reason, empty.pendingIds]).toEqual(["empty_map", pending]);
    expect(empty.message).toMatch(/^The resume map names no interrupt/);

    const unknown = await refusal(
      graph.invoke(new Command({ resume: { [ids.q1 as string]: 1, [unknownId]: 1 } }), config),
    );
    expect([unknown.reason, unknown.interruptIds, unknown.pendingIds]).toEqual([
      "not_pending",
      [unknownId],
      pending,
    ]);
    expect(unknown.message).toMatch(new RegExp(`^Unknown or already-consumed interrupt: ${unknownId}`));

    const state = await graph.getState(config);
    expect([state.values, state.next]).toEqual([{ log: [] }, ["a1", "a2"]]);
  });

  it("takes matching answers, then refuses an answer to an interrupt already answered", async () => {
    const { graph, config, ids } = await pausedGraph();
    const second = await graph.invoke(
      new Command({ resume: { [ids.q1 as string]: "A", [ids.q2 as string]: "B" } }),
      config,
    );
    expect(second.log).toEqual(["a1:A"]);
    const next = interruptsOf(second);
    expect(next.map((i) => i.value)).toEqual(["q2b"]);
    const retried = await refusal(graph.invoke(new Command({ resume: { [ids.q2 as string]: "B" } }), config));
    expect([retried.reason, retried.interruptIds, retried.pendingIds]).toEqual([
      "not_pending",
      [ids.q2],
      [next[0]?.id],
    ]);
    const done = await graph.invoke(new Command({ resume: "C" }), config);
    expect(done).toEqual({ log: ["a1:A", "a2:B:C"] });
  });

  it("changes nothing without the flag", async () => {
    const graph = new StateGraph(LogState)
      .addNode("a1", () => ({ log: [`a1:${String(interrupt("q1"))}`] }))
      .addNode("a2", () => ({ log: [`a2:${String(interrupt("q2"))}`] }))
      .addEdge(START, "a1")
      .addEdge(START, "a2")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "n" } };
    await graph.invoke({}, config);
    expect(await graph.invoke(new Command({ resume: "x" }), config)).toEqual({ log: ["a1:x", "a2:x"] });
  });
});

describe("errors and schema helpers", () => {
  it("UnknownInterruptError carries its reason and ids", () => {
    const error = new UnknownInterruptError("x", { reason: "ambiguous", pendingIds: ["a"] });
    expect([error.name, error.message, error.reason, error.interruptIds, error.pendingIds]).toEqual([
      "UnknownInterruptError",
      "x",
      "ambiguous",
      [],
      ["a"],
    ]);
    expect(error).toBeInstanceOf(BaseLangGraphError);
    expect(UnknownInterruptError.unminifiable_name).toBe("UnknownInterruptError");
    expect(isUnknownInterruptError({ name: "UnknownInterruptError" })).toBe(true);
    expect(isUnknownInterruptError(null)).toBe(false);
  });

  it("MultipleSubgraphsError and RemoteException have LangGraph.js's names", () => {
    const multiple = new MultipleSubgraphsError("m");
    expect([multiple.name, multiple.message, MultipleSubgraphsError.unminifiable_name]).toEqual([
      "MultipleSubgraphError",
      "m",
      "MultipleSubgraphError",
    ]);
    expect(multiple).toBeInstanceOf(BaseLangGraphError);
    const remote = new RemoteException("r");
    expect([remote.name, remote.message, new RemoteException().message]).toEqual([
      "RemoteException",
      "r",
      "",
    ]);
    expect(RemoteException.unminifiable_name).toBe("RemoteException");
  });

  it("_markInvalidResume marks an error, found through causes by isInvalidResume", () => {
    const error = new Error("z");
    _markInvalidResume(error);
    expect(isInvalidResume(error)).toBe(true);
    expect(isInvalidResume(new Error("w", { cause: error }))).toBe(true);
    expect(isInvalidResume(new Error("q"))).toBe(false);
    expect(isInvalidResume("s")).toBe(false);
    expect(Object.keys(error)).toEqual([]);
  });

  it("a Command is a CommandInstance keeping its parameters under COMMAND_SYMBOL", () => {
    const params = { resume: 1, goto: "a" };
    const command = new Command(params);
    expect(COMMAND_SYMBOL).toBe(Symbol.for("langgraph.command"));
    expect(command).toBeInstanceOf(CommandInstance);
    expect(command[COMMAND_SYMBOL]).toBe(params);
    expect(COMMAND_SYMBOL in command).toBe(true);
  });

  it("getJsonSchemaFromSchema and isSerializableSchema", () => {
    expect(getJsonSchemaFromSchema(z.object({ a: z.string(), b: z.number().default(1) }))).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { a: { type: "string" }, b: { default: 1, type: "number" } },
      required: ["a"],
    });
    expect(getJsonSchemaFromSchema({ type: "string" })).toBeUndefined();
    expect(getJsonSchemaFromSchema(z.string().transform((s) => s.length))).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "string",
    });
    expect(isSerializableSchema(z.string())).toBe(true);
    expect(isSerializableSchema({ "~standard": { validate() {} } })).toBe(false);
    expect(isSerializableSchema(null)).toBe(false);
    expect(isSerializableSchema({ type: "x" })).toBe(false);
  });
});
