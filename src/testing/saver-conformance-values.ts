/**
 * Values of every type the checkpoint serializer round-trips, for the saver conformance suite.
 * Messages come back as class instances only when the message classes are registered with the
 * serializer, which importing `agentgraph` (the root entry) does.
 */
import { Command, Overwrite, Send } from "../graph/index.js";
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage } from "../messages/index.js";

/** Named sample values, new objects on every call. */
export function serializableSamples(): Record<string, unknown> {
  const error = new TypeError("tool failed", { cause: new Error("socket closed") });
  (error as TypeError & { code?: string }).code = "E_TOOL";
  const sparse: unknown[] = [1];
  sparse[2] = 3;
  return {
    string: "plain text",
    unicode: "emoji 😀, NUL \u0000, lone surrogate \ud800, RTL שלום",
    emptyString: "",
    number: 42.5,
    negativeZero: -0,
    nan: Number.NaN,
    infinity: Number.NEGATIVE_INFINITY,
    bigint: 12345678901234567890123n,
    boolean: false,
    null: null,
    undefinedValue: undefined,
    undefinedInside: { present: undefined, list: [1, undefined, 3] },
    sparseArray: sparse,
    emptyArray: [],
    emptyObject: {},
    date: new Date(Date.UTC(2024, 1, 29, 12, 30, 45, 678)),
    invalidDate: new Date(Number.NaN),
    map: new Map<unknown, unknown>([
      ["a", 1],
      [2, new Date(5)],
      [{ key: "object" }, [1, 2]],
    ]),
    set: new Set<unknown>(["x", 1, { y: 2 }]),
    regexp: /a+b[c-d]/giu,
    uint8Array: new Uint8Array([0, 1, 2, 254, 255]),
    float64Array: new Float64Array([1.5, Number.NaN, -0, Number.POSITIVE_INFINITY]),
    int32Array: new Int32Array([-1, 2 ** 31 - 1]),
    bigInt64Array: new BigInt64Array([1n, -(2n ** 63n)]),
    arrayBuffer: new Uint8Array([9, 8, 7]).buffer,
    dataView: new DataView(new Uint8Array([4, 5, 6, 7]).buffer, 1, 2),
    error,
    nestedError: { failure: new RangeError("out of range") },
    human: new HumanMessage({ content: "What is the weather?", id: "msg-human-1", name: "alice" }),
    ai: new AIMessage({
      content: "Let me check.",
      id: "msg-ai-1",
      tool_calls: [
        { name: "get_weather", args: { city: "Paris", days: [1, 2] }, id: "call-1", type: "tool_call" },
      ],
      usage_metadata: { input_tokens: 12, output_tokens: 7, total_tokens: 19 },
      response_metadata: { model_name: "fake", finish_reason: "tool_calls" },
    }),
    tool: new ToolMessage({
      content: "Sunny",
      tool_call_id: "call-1",
      id: "msg-tool-1",
      artifact: { raw: new Map([["temp", 21]]) },
      status: "error",
    }),
    system: new SystemMessage({ content: [{ type: "text", text: "Be brief." }], id: "msg-system-1" }),
    remove: new RemoveMessage({ id: "msg-human-1" }),
    send: new Send("worker", { job: 1, at: new Date(7) }),
    command: new Command({ resume: { answer: "yes" }, goto: "next", update: { count: 2 } }),
    overwrite: new Overwrite(["only", "these"]),
    nested: { deep: [{ map: new Map([["k", new Set([new Date(1), 2n])]]) }], bytes: new Uint8Array([1]) },
    largeString: "x".repeat(100_000),
  };
}

/** The samples as one list (a list channel value), messages included. */
export function sampleList(): unknown[] {
  return Object.values(serializableSamples());
}
