// Micro-benchmark of the checkpoint serializer: encode + decode of typical values, on agentgraph
// (sync fast path and the async SerializerProtocol) and on LangGraph.js's JsonPlusSerializer.
// Not part of bench/run.ts or the test suite. Run: npx tsx bench/workloads/serde.ts [--batches 7]

import {
  AIMessage as ReferenceAIMessage,
  HumanMessage as ReferenceHumanMessage,
  ToolMessage as ReferenceToolMessage,
} from "@langchain/core/messages";
import { JsonPlusSerializer as ReferenceSerializer } from "@langchain/langgraph-checkpoint";
import { defaultSerializer } from "../../src/graph/index.js";
import { Send } from "../../src/index.js";
import { AIMessage, HumanMessage, ToolMessage } from "../../src/messages/index.js";
import { median, parseArgs, round } from "../lib/harness.js";

const args = parseArgs();
const BATCHES = Number(args.batches ?? 7);
const TARGET_MS = Number(args["batch-ms"] ?? 150);

interface MessageClasses {
  Human: new (fields: { content: string; id: string }) => object;
  AI: new (fields: {
    content: string;
    id: string;
    tool_calls?: { name: string; args: Record<string, unknown>; id: string; type: "tool_call" }[];
  }) => object;
  Tool: new (fields: { content: string; id: string; tool_call_id: string }) => object;
}

/** A 200-message conversation: user turns, tool-calling AI turns, tool results, answers. */
function conversation(classes: MessageClasses): { messages: object[]; turn: number } {
  const text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ".repeat(2);
  const messages: object[] = [];
  for (let turn = 0; messages.length < 200; turn++) {
    messages.push(new classes.Human({ content: `Question ${turn}: ${text}`, id: `h${turn}` }));
    messages.push(
      new classes.AI({
        content: "",
        id: `a${turn}`,
        tool_calls: [
          { name: "search", args: { query: `q${turn}`, limit: 5 }, id: `c${turn}`, type: "tool_call" },
        ],
      }),
    );
    messages.push(
      new classes.Tool({ content: `Result ${turn}: ${text}`, id: `t${turn}`, tool_call_id: `c${turn}` }),
    );
    messages.push(new classes.AI({ content: `Answer ${turn}: ${text}`, id: `b${turn}` }));
  }
  return { messages: messages.slice(0, 200), turn: 50 };
}

const ours: MessageClasses = { Human: HumanMessage, AI: AIMessage, Tool: ToolMessage };
const theirs = {
  Human: ReferenceHumanMessage,
  AI: ReferenceAIMessage,
  Tool: ReferenceToolMessage,
} as unknown as MessageClasses;

/** Median microseconds per call of `fn`, over batches sized to take about TARGET_MS each. */
async function microseconds(fn: () => unknown | Promise<unknown>): Promise<number> {
  let n = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < n; i++) await fn();
    const ms = performance.now() - start;
    if (ms > TARGET_MS / 4) {
      n = Math.max(1, Math.round((n * TARGET_MS) / ms));
      break;
    }
    n *= 4;
  }
  const perCall: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const start = performance.now();
    for (let i = 0; i < n; i++) await fn();
    perCall.push(((performance.now() - start) * 1000) / n);
  }
  return median(perCall);
}

const reference = new ReferenceSerializer();

interface Case {
  name: string;
  ours: unknown;
  theirs: unknown;
}

const cases: Case[] = [
  { name: "200-message state", ours: conversation(ours), theirs: conversation(theirs) },
  {
    name: "one AI message with a tool call",
    ours: new AIMessage({
      content: "",
      id: "a",
      tool_calls: [{ name: "f", args: { x: 1 }, id: "c", type: "tool_call" }],
    }),
    theirs: new ReferenceAIMessage({
      content: "",
      id: "a",
      tool_calls: [{ name: "f", args: { x: 1 }, id: "c" }],
    }),
  },
  {
    name: "small plain object",
    ours: { step: 3, route: "tools", done: false },
    theirs: { step: 3, route: "tools", done: false },
  },
  {
    name: "Send with args",
    ours: new Send("worker", { item: 7 }),
    theirs: { node: "worker", args: { item: 7 } },
  },
  {
    name: "1,000-entry plain JSON (no tags)",
    ours: Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"] })),
    theirs: Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"] })),
  },
];

console.log(
  "case | bytes | encode µs | decode µs | encode+decode µs | async dumps+loads µs | LangGraph.js dumps+loads µs",
);
for (const c of cases) {
  const text = defaultSerializer.encode(c.ours);
  const encode = await microseconds(() => defaultSerializer.encode(c.ours));
  const decode = await microseconds(() => defaultSerializer.decode(text));
  const both = await microseconds(() => defaultSerializer.decode(defaultSerializer.encode(c.ours)));
  const asyncBoth = await microseconds(async () => {
    const [type, bytes] = await defaultSerializer.dumpsTyped(c.ours);
    return defaultSerializer.loadsTyped(type, bytes);
  });
  const referenceBoth = await microseconds(async () => {
    const [type, bytes] = await reference.dumpsTyped(c.theirs);
    return reference.loadsTyped(type, bytes);
  });
  console.log(
    [
      c.name,
      text.length,
      round(encode, 1),
      round(decode, 1),
      round(both, 1),
      round(asyncBoth, 1),
      round(referenceBoth, 1),
    ].join(" | "),
  );
}
