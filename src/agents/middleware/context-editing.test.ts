import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import {
  ClearToolUsesEdit,
  type ClearToolUsesEditConfig,
  contextEditingMiddleware,
} from "./context-editing.js";
import { countTokensApproximately } from "./context-size.js";

/** Human, then four call/result pairs (c2 is the "memory" tool), then an orphan tool result. */
function conversation(): BaseMessage[] {
  const messages: BaseMessage[] = [new HumanMessage("go")];
  for (let i = 1; i <= 4; i++) {
    const name = i === 2 ? "memory" : "search";
    messages.push(
      new AIMessage({
        content: "",
        tool_calls: [{ name, args: { q: "x".repeat(40) }, id: `c${i}`, type: "tool_call" }],
      }),
      new ToolMessage({ content: "r".repeat(100), tool_call_id: `c${i}`, name, artifact: { a: i } }),
    );
  }
  messages.push(new ToolMessage({ content: "orphan", tool_call_id: "zz" }));
  return messages;
}

/** The same compact rendering as the reference script that produced the expectations. */
function render(messages: readonly BaseMessage[]): string[] {
  return messages.map((m) => {
    if (m instanceof ToolMessage)
      return `T(${m.tool_call_id}):${m.text.slice(0, 8)}:${JSON.stringify(m.response_metadata)}:${JSON.stringify(m.artifact)}`;
    if (m instanceof AIMessage)
      return `A(${m.tool_calls.map((c) => JSON.stringify(c.args).length).join(",")}):${JSON.stringify(m.response_metadata)}`;
    return m.getType();
  });
}

async function applyEdit(config: ClearToolUsesEditConfig, model: unknown = {}): Promise<string[]> {
  const messages = conversation();
  await new ClearToolUsesEdit(config).apply({ messages, model, countTokens: countTokensApproximately });
  return render(messages);
}

const CLEARED = '{"context_editing":{"cleared":true,"strategy":"clear_tool_uses"}}';
const KEPT = (i: number) => `T(c${i}):rrrrrrrr:{}:{"a":${i}}`;
const GONE = (i: number, text = "[cleared") => `T(c${i}):${text}:${CLEARED}:undefined`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("ClearToolUsesEdit (outputs as LangChain.js 1.5.14 gives them)", () => {
  it("clears all but the last `keep` results, clears inputs, skips excluded tools, drops orphans", async () => {
    expect(
      await applyEdit({
        trigger: { tokens: 10 },
        keep: { messages: 1 },
        clearToolInputs: true,
        excludeTools: ["memory"],
      }),
    ).toEqual([
      "human",
      'A(2):{"context_editing":{"cleared_tool_inputs":["c1"]}}',
      GONE(1),
      "A(48):{}",
      KEPT(2),
      'A(2):{"context_editing":{"cleared_tool_inputs":["c3"]}}',
      GONE(3),
      "A(48):{}",
      KEPT(4),
    ]);
  });

  it("does nothing below the trigger (default 100000 tokens) except dropping orphans", async () => {
    expect(await applyEdit({})).toEqual([
      "human",
      "A(48):{}",
      KEPT(1),
      "A(48):{}",
      KEPT(2),
      "A(48):{}",
      KEPT(3),
      "A(48):{}",
      KEPT(4),
    ]);
  });

  it("keep: { tokens } keeps the newest results that fit; placeholder is configurable", async () => {
    expect(
      await applyEdit({ trigger: { messages: 3 }, keep: { tokens: 60 }, placeholder: "[gone]" }),
    ).toEqual([
      "human",
      "A(48):{}",
      GONE(1, "[gone]"),
      "A(48):{}",
      GONE(2, "[gone]"),
      "A(48):{}",
      KEPT(3),
      "A(48):{}",
      KEPT(4),
    ]);
  });

  it("clearAtLeast (deprecated) keeps clearing recent results, newest first, until enough is reclaimed", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(await applyEdit({ trigger: { tokens: 10 }, keep: { messages: 3 }, clearAtLeast: 50 })).toEqual([
      "human",
      "A(48):{}",
      GONE(1),
      "A(48):{}",
      KEPT(2),
      "A(48):{}",
      GONE(3),
      "A(48):{}",
      GONE(4),
    ]);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^clearAtLeast is deprecated/);
  });

  it("default keep is 3 and a list of triggers fires when any clause holds", async () => {
    expect(await applyEdit({ trigger: [{ tokens: 1_000_000 }, { messages: 9 }] })).toEqual([
      "human",
      "A(48):{}",
      GONE(1),
      "A(48):{}",
      KEPT(2),
      "A(48):{}",
      KEPT(3),
      "A(48):{}",
      KEPT(4),
    ]);
    expect(await applyEdit({ trigger: [{ tokens: 1_000_000 }, { messages: 10 }] })).toContain(KEPT(1));
  });

  it("fraction triggers and keeps use the model's maxInputTokens (no window: no edit)", async () => {
    expect(await applyEdit({ trigger: { fraction: 0.5 } })).toContain(KEPT(1));
    const model = { profile: { maxInputTokens: 200 } };
    const edited = await applyEdit({ trigger: { fraction: 0.5 }, keep: { fraction: 0.2 } }, model);
    expect(edited.filter((line) => line.includes("[cleared")).length).toBe(3);
    expect(edited).toContain(KEPT(4));
  });

  it("supports the deprecated triggerTokens and keepMessages", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const edit = new ClearToolUsesEdit({ triggerTokens: 10, keepMessages: 2 });
    expect(edit.trigger).toEqual({ tokens: 10 });
    expect(edit.keep).toEqual({ messages: 2 });
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it("validates its sizes", () => {
    expect(() => new ClearToolUsesEdit({ keep: { messages: 1, tokens: 1 } as never })).toThrow(
      "Exactly one of fraction, tokens, or messages must be provided",
    );
    expect(() => new ClearToolUsesEdit({ trigger: { tokens: -1 } })).toThrow("Tokens must be greater than 0");
  });

  it("throws LangChain.js's ZodError for a bad size, e.g. the bare `keep: 3` of older docs", () => {
    const bare = (() => {
      try {
        new ClearToolUsesEdit({ trigger: { tokens: 100000 }, keep: 3 as never });
      } catch (error) {
        return error as Error & { issues: unknown[] };
      }
      return undefined;
    })();
    // LangChain.js 1.5.14 lets its Zod 3 check's error out of the constructor, message and all
    expect(bare?.name).toBe("ZodError");
    expect(bare?.issues).toEqual([
      {
        code: "invalid_type",
        expected: "object",
        received: "number",
        path: [],
        message: "Expected object, received number",
      },
    ]);
    expect(bare?.message).toBe(JSON.stringify(bare?.issues, null, 2));
    const empty = (() => {
      try {
        new ClearToolUsesEdit({ trigger: [{ tokens: 5 }, {}] });
      } catch (error) {
        return error as Error & { issues: unknown[] };
      }
      return undefined;
    })();
    expect(empty?.issues).toEqual([
      { code: "custom", message: "At least one of fraction, tokens, or messages must be provided", path: [] },
    ]);
  });

  it("does not clear a result twice", async () => {
    const messages = conversation();
    const edit = new ClearToolUsesEdit({ trigger: { tokens: 1 }, keep: { messages: 0 }, placeholder: "[x]" });
    await edit.apply({ messages, model: {}, countTokens: countTokensApproximately });
    const again = new ClearToolUsesEdit({
      trigger: { tokens: 1 },
      keep: { messages: 0 },
      placeholder: "[y]",
    });
    await again.apply({ messages, model: {}, countTokens: countTokensApproximately });
    expect(messages.filter((m) => m instanceof ToolMessage).map((m) => m.text)).toEqual([
      "[x]",
      "[x]",
      "[x]",
      "[x]",
    ]);
  });
});

describe("contextEditingMiddleware", () => {
  const search = tool(async () => "r".repeat(400), {
    name: "search",
    description: "Search.",
    schema: z.object({}),
  });
  const call = (id: string) =>
    new AIMessage({ content: "", tool_calls: [{ name: "search", args: {}, id, type: "tool_call" }] });

  it("writes the cleared results back to the state, as LangChain.js does", async () => {
    const model = new FakeChatModel({ responses: [call("c1"), call("c2"), "done"] });
    const agent = createAgent({
      model,
      tools: [search],
      middleware: [
        contextEditingMiddleware({
          edits: [new ClearToolUsesEdit({ trigger: { tokens: 150 }, keep: { messages: 1 } })],
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    const seen = (model.calls[2] ?? [])
      .filter((m) => m instanceof ToolMessage)
      .map((m) => m.text.slice(0, 9));
    expect(seen).toEqual(["[cleared]", "rrrrrrrrr"]);
    // LangChain.js edits the state's own list: the first result stays cleared in the state
    const stored = result.messages.filter((m) => m instanceof ToolMessage);
    expect(stored.map((m) => m.text.slice(0, 9))).toEqual(["[cleared]", "rrrrrrrrr"]);
    expect(stored[0]?.response_metadata).toMatchObject({
      context_editing: { cleared: true, strategy: "clear_tool_uses" },
    });
    expect(result.messages).toHaveLength(6);
    expect((model.calls[1] ?? []).filter((m) => m instanceof ToolMessage).map((m) => m.text.length)).toEqual([
      400,
    ]);
  });

  it("defaults to one ClearToolUsesEdit with a 100000-token trigger", async () => {
    const model = new FakeChatModel({ responses: [call("c1"), "done"] });
    const agent = createAgent({ model, tools: [search], middleware: [contextEditingMiddleware()] });
    await agent.invoke({ messages: [new HumanMessage("go")] });
    expect((model.calls[1] ?? []).filter((m) => m instanceof ToolMessage).map((m) => m.text.length)).toEqual([
      400,
    ]);
  });

  it('tokenCountMethod "model" counts with the model, system prompt included', async () => {
    const model = new FakeChatModel({ responses: [call("c1"), call("c2"), "done"] });
    const counted: string[][] = [];
    const edit = {
      apply: async ({
        messages,
        countTokens,
      }: {
        messages: BaseMessage[];
        countTokens: (m: BaseMessage[]) => number | Promise<number>;
      }) => {
        counted.push([String(await countTokens(messages))]);
      },
    };
    const agent = createAgent({
      model,
      tools: [search],
      systemPrompt: "S".repeat(40),
      middleware: [contextEditingMiddleware({ edits: [edit], tokenCountMethod: "model" })],
    });
    await agent.invoke({ messages: [new HumanMessage("go")] });
    // BaseChatModel.getNumTokens: characters / 4 of the text; the 40-character system prompt adds 10
    expect(counted[0]).toEqual([String(10 + 1)]);
  });

  it("passes the request through untouched when there are no messages", async () => {
    const apply = vi.fn();
    const middleware = contextEditingMiddleware({ edits: [{ apply }] });
    const wrap = middleware.wrapModelCall as unknown as (
      r: unknown,
      h: (r: unknown) => Promise<unknown>,
    ) => Promise<unknown>;
    const request = { messages: [], systemPrompt: "", model: {} };
    let passed: unknown;
    await wrap(request, async (r) => {
      passed = r;
      return new AIMessage("x");
    });
    expect(passed).toBe(request);
    expect(apply).not.toHaveBeenCalled();
    expect(middleware.name).toBe("ContextEditingMiddleware");
  });

  it('"model" counting fails clearly for a model without a token counter', async () => {
    const middleware = contextEditingMiddleware({
      edits: [new ClearToolUsesEdit({ trigger: { tokens: 1 } })],
      tokenCountMethod: "model",
    });
    const wrap = middleware.wrapModelCall as unknown as (
      r: unknown,
      h: (r: unknown) => Promise<unknown>,
    ) => Promise<unknown>;
    await expect(
      wrap(
        { messages: [new HumanMessage("x")], systemPrompt: "", model: { getName: () => "bare" } },
        async () => new AIMessage("x"),
      ),
    ).rejects.toThrow('Model "bare" does not support token counting');
  });
});
