/**
 * Storage of a long conversation thread: it grows with the bytes of the messages, not with
 * turns × history (docs/adr/0001-linear-checkpoint-storage.md). The thread is the bench's
 * workload G: a two-node loop that appends an AIMessage with a tool call and a ToolMessage per
 * turn. Stored bytes are deterministic, so the bounds are asserted exactly here (the bench
 * reports the same figures side by side with LangGraph.js).
 */
import { describe, expect, it } from "vitest";
import {
  type BaseCheckpointSaver,
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "../index.js";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "../messages/index.js";
import { SqliteSaver } from "./sqlite/index.js";

/** `prefix`, padded to `chars` characters. */
const text = (prefix: string, chars: number) => (prefix + " lorem ipsum".repeat(chars)).slice(0, chars);

const isTool = (m: BaseMessage) => m.getType() === "tool";

function conversation(saver: BaseCheckpointSaver, turns: number, chars: number) {
  return new StateGraph(MessagesAnnotation)
    .addNode("model", (state) => {
      const turn = state.messages.filter(isTool).length;
      return {
        messages: [
          new AIMessage({
            content: text(`Turn ${turn}: calling lookup.`, chars),
            id: `ai-${turn}`,
            tool_calls: [
              { id: `call_${turn}`, name: "lookup", args: { query: `q${turn}` }, type: "tool_call" },
            ],
          }),
        ],
      };
    })
    .addNode("tools", (state) => {
      const turn = state.messages.filter(isTool).length;
      return {
        messages: [
          new ToolMessage({
            content: text(`Result ${turn}.`, chars),
            tool_call_id: `call_${turn}`,
            id: `tool-${turn}`,
          }),
        ],
      };
    })
    .addEdge(START, "model")
    .addEdge("model", "tools")
    .addConditionalEdges("tools", (state) => (state.messages.length >= 1 + 2 * turns ? END : "model"))
    .compile({ checkpointer: saver });
}

/** The bytes of the messages themselves (their content, ids and tool calls as JSON). */
function rawBytes(messages: BaseMessage[]): number {
  let sum = 0;
  for (const m of messages) {
    const body = {
      type: m.getType(),
      content: m.content,
      id: m.id,
      tool_calls: (m as AIMessage).tool_calls ?? [],
      tool_call_id: (m as ToolMessage).tool_call_id,
    };
    sum += Buffer.byteLength(JSON.stringify(body));
  }
  return sum;
}

interface Measured {
  stored: number;
  raw: number;
}

async function measure(
  saver: BaseCheckpointSaver & { storedBytes(threadId?: string): number | Promise<number> },
  turns: number,
  chars: number,
): Promise<Measured> {
  const graph = conversation(saver, turns, chars);
  const config = { configurable: { thread_id: `t${turns}` }, recursionLimit: 2 * turns + 10 };
  const out = await graph.invoke(
    { messages: [new HumanMessage({ content: text("Question", chars), id: "q" })] },
    config,
  );
  expect(out.messages).toHaveLength(1 + 2 * turns);
  return { stored: await saver.storedBytes(`t${turns}`), raw: rawBytes(out.messages) };
}

const SAVERS = {
  MemorySaver: () => new MemorySaver(),
  SqliteSaver: () => SqliteSaver.fromConnString(":memory:"),
};

describe.each(Object.entries(SAVERS))("a long thread on %s", (_name, create) => {
  it("stores the same bytes for the same conversation (the figures below are exact)", async () => {
    const a = await measure(create(), 50, 200);
    const b = await measure(create(), 50, 200);
    expect(a.stored).toBe(b.stored);
  });

  it("stores about as many bytes per turn at 500 turns as at 50 (+25% at most)", async () => {
    const small = await measure(create(), 50, 200);
    const large = await measure(create(), 500, 200);
    expect(large.stored / 500).toBeLessThanOrEqual((1.25 * small.stored) / 50);
  });

  it("keeps 200 turns of 200-character messages in 500 KB (LangGraph.js SqliteSaver: 83.7 MB)", async () => {
    const { stored } = await measure(create(), 200, 200);
    expect(stored).toBeLessThanOrEqual(500 * 1024);
  });

  it("keeps 500 turns of 1 KB messages in less than twice their raw bytes", async () => {
    const { stored, raw } = await measure(create(), 500, 1024);
    expect(stored).toBeLessThan(2 * raw);
  });
});
