/**
 * What a long `createAgent` thread costs on disk: benchmark C's conversation (one tool call per
 * turn, 200-character messages) for 200 turns on a `SqliteSaver` file. The file's size after a
 * WAL checkpoint is what the bench reports; it is deterministic (ids, versions and hashes have
 * fixed lengths), so the target is asserted here exactly as the bench measures it.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
// the Node set-up every entry point installs (the compact message codec), as a user's import does
import "../entries/index.js";
import { SqliteSaver } from "../checkpoint/sqlite/index.js";
import { AIMessage, type BaseMessage, HumanMessage } from "../messages/index.js";
import { BaseChatModel, type ChatResult } from "../models/index.js";
import { tool } from "../tools/index.js";
import { createAgent } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "agentgraph-agent-storage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHARS = 200;
const text = (prefix: string) => `${prefix} ${"x".repeat(CHARS)}`.slice(0, CHARS);

/** Benchmark C's model: one `lookup` call while fewer than `turns` results are in, then an answer. */
class ScriptedModel extends BaseChatModel {
  constructor(private readonly turns: number) {
    super({});
  }
  _llmType(): string {
    return "scripted";
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const turn = messages.filter((m) => m.getType() === "tool").length;
    const message =
      turn < this.turns
        ? new AIMessage({
            content: text(`Step ${turn}: I will call lookup to gather more context.`),
            id: `ai-${turn}`,
            tool_calls: [
              { id: `call_${turn}`, name: "lookup", args: { query: `q${turn}` }, type: "tool_call" },
            ],
          })
        : new AIMessage({ content: text(`Final answer after ${this.turns} tool calls.`), id: `ai-${turn}` });
    return { generations: [{ text: String(message.content), message }] };
  }
}

const lookup = tool(async ({ query }: { query: string }) => text(`Result for ${query}:`), {
  name: "lookup",
  description: "Look up a fact (benchmark stub).",
  schema: z.object({ query: z.string() }),
});

async function threadOnDisk(turns: number): Promise<{ fileBytes: number; valueBytes: number }> {
  const file = join(dir, `agent-${turns}-${Math.random().toString(36).slice(2)}.db`);
  const saver = SqliteSaver.fromConnString(file);
  const agent = createAgent({ model: new ScriptedModel(turns), tools: [lookup], checkpointer: saver });
  const out = await agent.invoke(
    {
      messages: [
        new HumanMessage({
          content: text(`Please research this topic using ${turns} lookups.`),
          id: "human-0",
        }),
      ],
    },
    { configurable: { thread_id: "run" }, recursionLimit: 10 * turns + 100 },
  );
  expect(out.messages).toHaveLength(2 * turns + 2);
  const valueBytes = saver.storedBytes("run");
  saver.db.pragma("wal_checkpoint(TRUNCATE)");
  const fileBytes = statSync(file).size;
  await saver.close();
  return { fileBytes, valueBytes };
}

describe("a 200-turn createAgent thread on SqliteSaver (benchmark C)", () => {
  it("fits in 500 KB on disk (LangGraph.js: 83.7 MB), the same stored values every time", async () => {
    const first = await threadOnDisk(200);
    const second = await threadOnDisk(200);
    expect(first.fileBytes).toBeLessThanOrEqual(500_000);
    expect(second.fileBytes).toBeLessThanOrEqual(500_000);
    expect(second.valueBytes).toBe(first.valueBytes);
    // how `async` durability groups saves into transactions follows the event loop's timing (a
    // busy machine pauses the run elsewhere), which moves a page or two of the file
    expect(Math.abs(second.fileBytes - first.fileBytes)).toBeLessThanOrEqual(2 * 4096);
  });
});
