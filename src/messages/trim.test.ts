import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../shared/index.js";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  HumanMessageChunk,
  isBaseMessageChunk,
  SystemMessage,
  ToolMessage,
  type TrimMessagesOptions,
  trimMessages,
} from "./index.js";

const count = (messages: BaseMessage[]) => messages.length;
const chars = (messages: BaseMessage[]) => messages.reduce((n, m) => n + m.text.length, 0);
const ids = (messages: BaseMessage[]) => messages.map((m) => m.id).join(",");

const conversation = () => [
  new SystemMessage({ content: "sys", id: "s" }),
  new HumanMessage({ content: "h1", id: "h1" }),
  new AIMessage({
    content: "",
    id: "a1",
    tool_calls: [
      { name: "f", args: {}, id: "c1" },
      { name: "g", args: {}, id: "c2" },
    ],
  }),
  new ToolMessage({ content: "t1", tool_call_id: "c1", id: "t1" }),
  new ToolMessage({ content: "t2", tool_call_id: "c2", id: "t2" }),
  new AIMessage({ content: "a2", id: "a2" }),
  new HumanMessage({ content: "h2", id: "h2" }),
  new AIMessage({ content: "a3", id: "a3" }),
];

async function trimIds(maxTokens: number, options: Partial<TrimMessagesOptions> = {}) {
  return ids(await trimMessages(conversation(), { maxTokens, tokenCounter: count, ...options }));
}

describe("trimMessages", () => {
  it("keeps the last messages that fit, dropping a tool-call group whole", async () => {
    expect(await trimIds(0)).toBe("");
    expect(await trimIds(1)).toBe("a3");
    expect(await trimIds(3)).toBe("a2,h2,a3");
    // LangChain.js would keep "t2" or "t1,t2" here, orphaning the results of a1's calls.
    expect(await trimIds(4)).toBe("a2,h2,a3");
    expect(await trimIds(5)).toBe("a2,h2,a3");
    expect(await trimIds(6)).toBe("a1,t1,t2,a2,h2,a3");
    expect(await trimIds(8)).toBe("s,h1,a1,t1,t2,a2,h2,a3");
    expect(await trimIds(100)).toBe("s,h1,a1,t1,t2,a2,h2,a3");
  });

  it("keeps the first messages that fit, dropping a tool-call group whole", async () => {
    const first = { strategy: "first" as const };
    expect(await trimIds(2, first)).toBe("s,h1");
    expect(await trimIds(3, first)).toBe("s,h1");
    expect(await trimIds(4, first)).toBe("s,h1");
    expect(await trimIds(5, first)).toBe("s,h1,a1,t1,t2");
    expect(await trimIds(7, first)).toBe("s,h1,a1,t1,t2,a2,h2");
  });

  it("trims by tokens too, keeping a tool-call group whole", async () => {
    // Token cost of each message: its text length plus 3 per tool call (a stand-in tokenizer).
    const tokens = (messages: BaseMessage[]) =>
      messages.reduce(
        (n, m) => n + m.text.length + (m instanceof AIMessage ? 3 * m.tool_calls.length : 0),
        0,
      );
    const byTokens = async (maxTokens: number, strategy: "first" | "last" = "last") =>
      ids(await trimMessages(conversation(), { maxTokens, tokenCounter: tokens, strategy }));
    // a3, h2, a2 cost 2 each; t2 and t1 cost 2 each; a1 costs 6.
    expect(await byTokens(6)).toBe("a2,h2,a3");
    // 8 or 15 tokens would fit t2 or t1,t2, but not their AI message: the whole group goes.
    expect(await byTokens(8)).toBe("a2,h2,a3");
    expect(await byTokens(15)).toBe("a2,h2,a3");
    expect(await byTokens(16)).toBe("a1,t1,t2,a2,h2,a3");
    // From the front, a1 fits (11 tokens) but its results do not: the group is dropped.
    expect(await byTokens(11, "first")).toBe("s,h1");
    expect(await byTokens(15, "first")).toBe("s,h1,a1,t1,t2");
    // The model-like form sums getNumTokens(content); the group t1, t2 and a1 (empty) costs 4.
    const modelLike = {
      getNumTokens: (content: unknown) => (typeof content === "string" ? content.length : 0),
    };
    expect(ids(await trimMessages(conversation(), { maxTokens: 10, tokenCounter: modelLike }))).toBe(
      "a1,t1,t2,a2,h2,a3",
    );
    expect(ids(await trimMessages(conversation(), { maxTokens: 9, tokenCounter: modelLike }))).toBe(
      "a2,h2,a3",
    );
  });

  it("always keeps a leading system message with includeSystem", async () => {
    expect(await trimIds(0, { includeSystem: true })).toBe("s");
    expect(await trimIds(1, { includeSystem: true })).toBe("s");
    expect(await trimIds(3, { includeSystem: true })).toBe("s,h2,a3");
    expect(await trimIds(6, { includeSystem: true })).toBe("s,a2,h2,a3");
    expect(await trimIds(7, { includeSystem: true })).toBe("s,a1,t1,t2,a2,h2,a3");
  });

  it("starts on and ends on the requested kinds", async () => {
    expect(await trimIds(3, { startOn: "human", includeSystem: true })).toBe("s,h2,a3");
    expect(await trimIds(2, { startOn: "human", includeSystem: true })).toBe("s");
    expect(await trimIds(7, { startOn: [HumanMessage] })).toBe("h1,a1,t1,t2,a2,h2,a3");
    expect(await trimIds(3, { endOn: "human" })).toBe("a2,h2");
    expect(await trimIds(4, { endOn: ["human", ToolMessage] })).toBe("a2,h2");
    expect(await trimIds(8, { endOn: "tool" })).toBe("s,h1,a1,t1,t2");
    expect(await trimIds(8, { strategy: "first", endOn: "ai" })).toBe("s,h1,a1,t1,t2,a2,h2,a3");
    expect(await trimIds(7, { strategy: "first", endOn: "ai" })).toBe("s,h1,a1,t1,t2,a2");
    expect(await trimIds(4, { strategy: "first", endOn: AIMessage })).toBe("");
  });

  it("returns the given message objects, not copies", async () => {
    const messages = conversation();
    const kept = await trimMessages(messages, { maxTokens: 2, tokenCounter: count });
    expect(kept[0]).toBe(messages[6]);
    expect(kept[1]).toBe(messages[7]);
  });

  it("accepts message-likes, model-like counters, async counters and a transformer form", async () => {
    const kept = await trimMessages(["a", ["ai", "b"], { role: "user", content: "c" }], {
      maxTokens: 2,
      tokenCounter: { getNumTokens: async (content) => (typeof content === "string" ? content.length : 0) },
    });
    expect(kept.map((m) => m.text)).toEqual(["b", "c"]);
    const asyncCount = async (messages: BaseMessage[]) => messages.length;
    expect(
      (await trimMessages(conversation(), { maxTokens: 1, tokenCounter: asyncCount })).map((m) => m.id),
    ).toEqual(["a3"]);
    const trimmer = trimMessages({ maxTokens: 2, tokenCounter: count });
    expect(ids(await trimmer(conversation()))).toBe("h2,a3");
    expect(ids(await trimmer.invoke(conversation()))).toBe("h2,a3");
  });

  describe("allowPartial", () => {
    const lines = () => [
      new HumanMessage({ content: "line1\nline2\nline3", id: "x" }),
      new AIMessage({ content: "abcdef\nghij", id: "y" }),
    ];

    it("keeps the beginning of the cut message with strategy first", async () => {
      const kept = await trimMessages(lines(), {
        maxTokens: 8,
        tokenCounter: chars,
        strategy: "first",
        allowPartial: true,
      });
      expect(kept.map((m) => m.content)).toEqual(["line1\n"]);
      const more = await trimMessages(lines(), {
        maxTokens: 25,
        tokenCounter: chars,
        strategy: "first",
        allowPartial: true,
      });
      expect(more.map((m) => m.content)).toEqual(["line1\nline2\nline3", "abcdef\n"]);
    });

    it("keeps the end of the cut message with strategy last", async () => {
      const kept = await trimMessages(lines(), { maxTokens: 8, tokenCounter: chars, allowPartial: true });
      expect(kept.map((m) => m.content)).toEqual(["ghij"]);
      const more = await trimMessages(lines(), { maxTokens: 17, tokenCounter: chars, allowPartial: true });
      expect(more.map((m) => m.content)).toEqual(["line3", "abcdef\nghij"]);
      const fitsNothing = await trimMessages(lines(), {
        maxTokens: 3,
        tokenCounter: chars,
        allowPartial: true,
      });
      expect(fitsNothing).toEqual([]);
    });

    it("keeps whole content blocks before splitting text, and copies instead of mutating", async () => {
      const original = new HumanMessage({
        content: [
          { type: "text", text: "aaa" },
          { type: "text", text: "bbb" },
          { type: "text", text: "ccc" },
        ],
        id: "b",
      });
      const firstTwo = await trimMessages([original], {
        maxTokens: 6,
        tokenCounter: chars,
        strategy: "first",
        allowPartial: true,
      });
      expect(firstTwo[0]?.content).toEqual([
        { type: "text", text: "aaa" },
        { type: "text", text: "bbb" },
      ]);
      expect(firstTwo[0]).toBeInstanceOf(HumanMessage);
      expect(firstTwo[0]?.id).toBe("b");
      const lastOne = await trimMessages([original], {
        maxTokens: 4,
        tokenCounter: chars,
        allowPartial: true,
      });
      expect(lastOne[0]?.content).toEqual([{ type: "text", text: "ccc" }]);
      expect(original.content).toHaveLength(3);
    });

    it("turns a chunk cut to whole blocks into a whole message, as LangChain.js does", async () => {
      const chunk = () =>
        new HumanMessageChunk({
          content: [
            { type: "text", text: "aaa" },
            { type: "text", text: "bbb" },
            { type: "text", text: "ccc" },
          ],
          id: "h1",
        });
      for (const strategy of ["first", "last"] as const) {
        const [kept] = await trimMessages([chunk()], {
          maxTokens: 6,
          tokenCounter: chars,
          strategy,
          allowPartial: true,
        });
        expect(kept).toBeInstanceOf(HumanMessage);
        expect(isBaseMessageChunk(kept)).toBe(false);
        expect(kept?.id).toBe("h1");
        expect(kept?.content).toHaveLength(2);
      }
      // a chunk cut inside its text stays a chunk (LangChain.js shortens its copy of the message)
      const text = new HumanMessageChunk({ content: "line1\nline2", id: "h2" });
      const [cut] = await trimMessages([text], {
        maxTokens: 6,
        tokenCounter: chars,
        strategy: "first",
        allowPartial: true,
      });
      expect(isBaseMessageChunk(cut)).toBe(true);
      expect(cut?.content).toBe("line1\n");
    });

    it("uses a custom text splitter, function or object", async () => {
      const message = [new HumanMessage({ content: "one. two. three.", id: "s" })];
      const bySentence = (text: string) => text.split(/(?<=\. )/);
      const kept = await trimMessages(message, {
        maxTokens: 10,
        tokenCounter: chars,
        strategy: "first",
        allowPartial: true,
        textSplitter: bySentence,
      });
      expect(kept[0]?.content).toBe("one. two. ");
      const viaObject = await trimMessages(message, {
        maxTokens: 7,
        tokenCounter: chars,
        allowPartial: true,
        textSplitter: { splitText: async (text: string) => bySentence(text) },
      });
      expect(viaObject[0]?.content).toBe("three.");
    });

    it("never shortens a message inside a tool-call group", async () => {
      const kept = await trimMessages(conversation(), {
        maxTokens: 4,
        tokenCounter: count,
        allowPartial: true,
      });
      expect(ids(kept)).toBe("a2,h2,a3");
    });
  });

  it("rejects invalid options with the LangChain texts", async () => {
    const messages = conversation();
    await expect(
      trimMessages(messages, { maxTokens: 1, tokenCounter: count, strategy: "first", startOn: "human" }),
    ).rejects.toThrow("`startOn` should only be specified if `strategy` is 'last'.");
    await expect(
      trimMessages(messages, { maxTokens: 1, tokenCounter: count, strategy: "first", includeSystem: true }),
    ).rejects.toThrow("`includeSystem` should only be specified if `strategy` is 'last'.");
    await expect(
      trimMessages(messages, { maxTokens: 1, tokenCounter: count, strategy: "middle" as never }),
    ).rejects.toThrow(InvalidArgumentError);
    await expect(
      trimMessages(messages, { maxTokens: 1, tokenCounter: count, strategy: "middle" as never }),
    ).rejects.toThrow("Unrecognized strategy: 'middle'. Must be one of 'first' or 'last'.");
    await expect(
      (trimMessages as unknown as (m: BaseMessage[]) => Promise<unknown>)(messages),
    ).rejects.toThrow("Options parameter is required when providing messages.");
    await expect(trimMessages(messages, { maxTokens: "3" as never, tokenCounter: count })).rejects.toThrow(
      "`maxTokens` must be a number, got 3.",
    );
    await expect(trimMessages(messages, { maxTokens: 3, tokenCounter: 5 as never })).rejects.toThrow(
      "`tokenCounter` must be a function of the message list (e.g. (msgs) => msgs.length) or an object with getNumTokens(content).",
    );
    await expect(
      trimMessages(messages, {
        maxTokens: 3,
        tokenCounter: count,
        allowPartial: true,
        textSplitter: 1 as never,
      }),
    ).rejects.toThrow("`textSplitter` must be a function or an object with splitText(text).");
    await expect(
      trimMessages(messages, { maxTokens: 3, tokenCounter: count, endOn: "robot" as never }),
    ).resolves.toEqual([]);
    await expect(
      trimMessages(messages, { maxTokens: 3, tokenCounter: count, endOn: Date as never }),
    ).rejects.toThrow(
      'Invalid type provided. Date is not a message type: use a type string ("human", "ai", "system", "tool") or a message class.',
    );
    expect(() =>
      trimMessages({ maxTokens: 1, tokenCounter: count, strategy: "first", includeSystem: true }),
    ).toThrow("`includeSystem` should only be specified if `strategy` is 'last'.");
  });
});

describe("trimMessages properties", () => {
  /** A random conversation of human turns, plain answers and tool-call rounds. */
  const conversationArb = fc
    .array(
      fc.record({ kind: fc.constantFrom("human", "answer", "tools"), calls: fc.integer({ min: 1, max: 3 }) }),
      {
        maxLength: 10,
      },
    )
    .map((turns) => {
      const messages: BaseMessage[] = [new SystemMessage({ content: "sys", id: "s" })];
      turns.forEach((turn, t) => {
        if (turn.kind === "human") messages.push(new HumanMessage({ content: `h${t}`, id: `h${t}` }));
        else if (turn.kind === "answer") messages.push(new AIMessage({ content: `a${t}`, id: `a${t}` }));
        else {
          const callIds = Array.from({ length: turn.calls }, (_, c) => `c${t}_${c}`);
          messages.push(
            new AIMessage({
              content: "",
              id: `a${t}`,
              tool_calls: callIds.map((id) => ({ name: "f", args: {}, id })),
            }),
            ...callIds.map((id) => new ToolMessage({ content: id, tool_call_id: id, id: `t${id}` })),
          );
        }
      });
      return messages;
    });

  it("never separates tool calls from their results, stays in budget and keeps order", async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArb,
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom("first", "last") as fc.Arbitrary<"first" | "last">,
        fc.boolean(),
        async (messages, maxTokens, strategy, includeSystem) => {
          const kept = await trimMessages(messages, {
            maxTokens,
            tokenCounter: count,
            strategy,
            includeSystem: strategy === "last" && includeSystem,
          });
          const keptIds = new Set(kept.map((m) => m.id));
          for (const message of messages) {
            if (message instanceof AIMessage && message.tool_calls.length > 0) {
              const results = messages.filter(
                (m) => m instanceof ToolMessage && message.tool_calls.some((c) => c.id === m.tool_call_id),
              );
              for (const result of results) expect(keptIds.has(result.id)).toBe(keptIds.has(message.id));
            }
          }
          const system = strategy === "last" && includeSystem ? 1 : 0;
          expect(kept.length).toBeLessThanOrEqual(Math.max(maxTokens, system));
          const positions = kept.map((m) => messages.indexOf(m));
          expect(positions).toEqual([...positions].sort((a, b) => a - b));
        },
      ),
      { numRuns: 300 },
    );
  });
});
