import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AIMessage,
  AIMessageChunk,
  addMessages,
  type BaseMessage,
  HumanMessage,
  isMergedMessageList,
  MessageRemovalError,
  messagesStateReducer,
  REMOVE_ALL_MESSAGES,
  RemoveMessage,
  ToolMessage,
} from "./index.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const human = (id: string | undefined, content = id ?? "x") => new HumanMessage({ content, id });
const view = (messages: BaseMessage[]) => messages.map((m) => `${m.id}:${String(m.content)}`);

describe("messagesStateReducer", () => {
  it("appends messages with new ids", () => {
    expect(view(messagesStateReducer([human("1"), human("2")], [human("3")]))).toEqual(["1:1", "2:2", "3:3"]);
  });

  it("replaces a message with the same id in place", () => {
    expect(view(messagesStateReducer([human("1"), human("2")], [human("1", "new")]))).toEqual([
      "1:new",
      "2:2",
    ]);
  });

  it("accepts single values and message-likes on either side", () => {
    const result = messagesStateReducer(human("1"), "hello");
    expect(result).toHaveLength(2);
    expect(result[1]).toBeInstanceOf(HumanMessage);
    expect(result[1]?.content).toBe("hello");
    const coerced = messagesStateReducer([], [{ role: "user", content: "x" }, ["ai", "y"]]);
    expect(coerced[0]).toBeInstanceOf(HumanMessage);
    expect(coerced[1]).toBeInstanceOf(AIMessage);
  });

  it("gives messages without an id a UUID v4, updating the message objects on both sides", () => {
    const left = [human(undefined, "a")];
    const right = [human(undefined, "b")];
    const result = messagesStateReducer(left, right);
    expect(result[0]).toBe(left[0]);
    expect(result[1]).toBe(right[0]);
    expect(left[0]?.id).toMatch(UUID_V4);
    expect(right[0]?.id).toMatch(UUID_V4);
    expect(left[0]?.id).not.toBe(right[0]?.id);
  });

  it("removes messages by id", () => {
    expect(view(messagesStateReducer([human("1"), human("2")], [new RemoveMessage({ id: "1" })]))).toEqual([
      "2:2",
    ]);
  });

  it("throws the LangGraph error when removing an unknown id", () => {
    const remove = () => messagesStateReducer([human("1")], [new RemoveMessage({ id: "9" })]);
    expect(remove).toThrow(MessageRemovalError);
    expect(remove).toThrow("Attempting to delete a message with an ID that doesn't exist ('9')");
  });

  it("can remove a message added earlier in the same update", () => {
    expect(view(messagesStateReducer([human("1")], [human("3"), new RemoveMessage({ id: "3" })]))).toEqual([
      "1:1",
    ]);
  });

  it("lets a later message with the same id undo a removal", () => {
    expect(
      view(
        messagesStateReducer([human("1"), human("2")], [new RemoveMessage({ id: "1" }), human("1", "back")]),
      ),
    ).toEqual(["1:back", "2:2"]);
    expect(
      view(messagesStateReducer([human("1"), human("2")], [human("1", "x"), new RemoveMessage({ id: "1" })])),
    ).toEqual(["2:2"]);
  });

  it("keeps only what follows the last REMOVE_ALL_MESSAGES marker", () => {
    const result = messagesStateReducer(
      [human("1"), human("2")],
      [human("3"), new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), human("4"), human("5")],
    );
    expect(view(result)).toEqual(["4:4", "5:5"]);
    const twice = messagesStateReducer(
      [human("1")],
      [
        new RemoveMessage({ id: REMOVE_ALL_MESSAGES }),
        human("2"),
        new RemoveMessage({ id: REMOVE_ALL_MESSAGES }),
      ],
    );
    expect(twice).toEqual([]);
  });

  it("matches LangGraph on duplicate ids: later updates win, only the last left duplicate is replaced", () => {
    expect(view(messagesStateReducer([human("1")], [human("3"), human("3", "b")]))).toEqual(["1:1", "3:b"]);
    expect(
      view(messagesStateReducer([human("1"), human("1", "dup"), human("2")], [human("1", "rep")])),
    ).toEqual(["1:1", "1:rep", "2:2"]);
    expect(
      view(
        messagesStateReducer([human("1"), human("1", "dup"), human("2")], [new RemoveMessage({ id: "1" })]),
      ),
    ).toEqual(["2:2"]);
  });

  it("stores chunks as whole messages", () => {
    const chunk = new AIMessageChunk({
      content: "abc",
      id: "c",
      tool_call_chunks: [{ name: "f", args: '{"a":1}', id: "t", index: 0, type: "tool_call_chunk" }],
      usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
    const [stored] = messagesStateReducer([], [chunk]);
    expect(stored).toBeInstanceOf(AIMessage);
    expect(stored).not.toBeInstanceOf(AIMessageChunk);
    expect(stored).toMatchObject({
      content: "abc",
      id: "c",
      tool_calls: [{ name: "f", args: { a: 1 }, id: "t", type: "tool_call" }],
      usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
    expect("tool_call_chunks" in (stored as object)).toBe(false);
  });

  it("never mutates the given arrays and treats a missing side as empty", () => {
    const left = Object.freeze([human("1")]);
    const right = Object.freeze([human("2")]);
    const result = messagesStateReducer(left, right);
    expect(result).not.toBe(left);
    expect(view(result)).toEqual(["1:1", "2:2"]);
    expect(view(messagesStateReducer(undefined as never, [human("1")]))).toEqual(["1:1"]);
    expect(view(messagesStateReducer([human("1")], null as never))).toEqual(["1:1"]);
    expect(messagesStateReducer([human("1")], [])).not.toBe(left);
  });

  it("is exported as addMessages", () => {
    expect(addMessages).toBe(messagesStateReducer);
  });

  it("handles a long history in linear time", () => {
    const left = Array.from({ length: 50_000 }, (_, i) => human(`m${i}`));
    const right = Array.from({ length: 50_000 }, (_, i) =>
      i % 2 === 0 ? human(`m${i}`, "edited") : new RemoveMessage({ id: `m${i}` }),
    );
    const started = performance.now();
    const result = messagesStateReducer(left, right);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result).toHaveLength(25_000);
    expect(result[0]?.content).toBe("edited");
  });
});

describe("messagesStateReducer properties", () => {
  const idsArb = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 12 });
  const kinds = (ids: string[], flags: boolean[]) =>
    ids.map((id, i) =>
      flags[i]
        ? new AIMessage({ content: `a-${id}`, id })
        : new ToolMessage({ content: `t-${id}`, id, tool_call_id: id }),
    );

  it("appending messages with distinct new ids preserves order and count", () => {
    fc.assert(
      fc.property(idsArb, fc.array(fc.boolean(), { maxLength: 12 }), fc.nat(12), (ids, flags, split) => {
        const messages = kinds(ids, flags);
        const left = messages.slice(0, split);
        const right = messages.slice(split);
        const result = messagesStateReducer(left, right);
        expect(result).toEqual(messages);
        expect(result.map((m) => m.id)).toEqual(ids);
      }),
    );
  });

  it("applying an update twice equals applying it once when every message has an id", () => {
    fc.assert(
      fc.property(idsArb, idsArb, (leftIds, rightIds) => {
        const left = leftIds.map((id) => human(id, `old-${id}`));
        const right = rightIds.map((id) => human(id, `new-${id}`));
        const once = messagesStateReducer(left, right);
        const twice = messagesStateReducer(once, right);
        expect(view(twice)).toEqual(view(once));
      }),
    );
  });

  it("removal removes exactly the given ids and keeps the order of the rest", () => {
    fc.assert(
      fc.property(idsArb, fc.array(fc.boolean(), { maxLength: 12 }), (ids, removeFlags) => {
        const left = ids.map((id) => human(id));
        const removed = ids.filter((_, i) => removeFlags[i]);
        const result = messagesStateReducer(
          left,
          removed.map((id) => new RemoveMessage({ id })),
        );
        expect(result.map((m) => m.id)).toEqual(ids.filter((id) => !removed.includes(id)));
      }),
    );
  });

  it("the result holds each id at most once when the inputs do, and every update id", () => {
    fc.assert(
      fc.property(
        idsArb,
        fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 12 }),
        (leftIds, rightIds) => {
          const result = messagesStateReducer(
            leftIds.map((id) => human(id)),
            rightIds.map((id) => human(id, `new-${id}`)),
          );
          const ids = result.map((m) => m.id);
          expect(new Set(ids).size).toBe(ids.length);
          for (const id of rightIds) expect(result.find((m) => m.id === id)?.content).toBe(`new-${id}`);
        },
      ),
    );
  });
});

describe("messagesStateReducer on lists it built", () => {
  /** The reducer's meaning, written plainly: replace by id (last occurrence), remove, append. */
  function naive(left: readonly BaseMessage[], right: readonly BaseMessage[]): string[] {
    const out = left.map((m) => ({ id: m.id as string, text: String(m.content) }));
    for (const m of right) {
      const at = out.map((x) => x.id).lastIndexOf(m.id as string);
      if (RemoveMessage.isInstance(m)) out.splice(at, 1);
      else if (at === -1) out.push({ id: m.id as string, text: String(m.content) });
      else out[at] = { id: m.id as string, text: String(m.content) };
    }
    return out.map((x) => `${x.id}:${x.text}`);
  }

  type Step = {
    from: number;
    news: number;
    edits: number[];
    removes: number[];
    push: boolean;
    /** ids other lists appended (absent from this one), appended here too */
    reuse: number[];
    /** merge the same update into the same list twice (as an engine does for a step's routing) */
    again: boolean;
    /** two positions swapped in place before the merge */
    swap: [number, number] | null;
  };
  const stepArb: fc.Arbitrary<Step> = fc.record({
    from: fc.nat(),
    news: fc.nat(6),
    edits: fc.array(fc.nat(12), { maxLength: 3 }),
    removes: fc.array(fc.nat(), { maxLength: 1 }),
    push: fc.boolean(),
    reuse: fc.array(fc.nat(12), { maxLength: 3 }),
    again: fc.boolean(),
    swap: fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: null }),
  });

  it("an id two branches appended at different positions is found in each of them", () => {
    // a list the reducer built, so the lists below share its index
    const history = messagesStateReducer(
      Array.from({ length: 20 }, (_, i) => human(`h${i}`)),
      [human("h20")],
    );
    const first = messagesStateReducer(history, [human("x")]);
    const second = messagesStateReducer(history, [human("w"), human("x")]);
    expect(view(messagesStateReducer(first, [human("x", "x2")]))).toEqual([...view(history), "x:x2"]);
    expect(view(messagesStateReducer(second, [human("x", "x3")]))).toEqual([...view(history), "w:w", "x:x3"]);
    // merged twice from the same history (routing, then the step's end): the same result
    expect(view(messagesStateReducer(history, [human("x")]))).toEqual(view(first));
  });

  it("branching histories, edits, removals, reordered and pushed-into lists all merge as the plain rule says", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        let counter = 0;
        const lists: BaseMessage[][] = [Array.from({ length: 20 }, () => human(`m${counter++}`))];
        const everId: string[] = [];
        for (const list of lists) for (const m of list) everId.push(m.id as string);
        for (const step of steps) {
          const base = lists[step.from % lists.length] as BaseMessage[];
          if (step.push && base.length > 0) base.push(human(`p${counter++}`));
          if (step.swap !== null && base.length > 1) {
            const [i, j] = [step.swap[0] % base.length, step.swap[1] % base.length];
            [base[i], base[j]] = [base[j] as BaseMessage, base[i] as BaseMessage];
          }
          const right: BaseMessage[] = [];
          // edits mostly of recent messages, where ids other branches appended too are
          for (const e of step.edits)
            if (base.length > 0)
              right.push(human(base[base.length - 1 - (e % base.length)]?.id, `e${counter++}`));
          for (let i = 0; i < step.news; i += 1) right.push(human(`m${counter++}`));
          // after the new ones, so a reused id lands at another position than in its first list
          const inBase = new Set(base.map((m) => m.id));
          const elsewhere = everId.filter((id) => !inBase.has(id));
          for (const r of step.reuse) {
            const id = elsewhere[elsewhere.length - 1 - (r % Math.max(elsewhere.length, 1))];
            if (id !== undefined && !right.some((m) => m.id === id)) right.push(human(id, `r${counter++}`));
          }
          for (const m of right) everId.push(m.id as string);
          const ids = new Set(base.map((m) => m.id));
          for (const r of step.removes) {
            const id = base[r % Math.max(base.length, 1)]?.id;
            if (id !== undefined && ids.delete(id) && !right.some((m) => m.id === id))
              right.push(new RemoveMessage({ id }));
          }
          const before = view(base);
          const expected = naive(base, right);
          if (step.again) {
            const first = messagesStateReducer(base, right);
            expect(view(first)).toEqual(expected);
            lists.push(first);
          }
          const result = messagesStateReducer(base, right);
          expect(view(result)).toEqual(expected);
          expect(view(base)).toEqual(before);
          lists.push(result);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("isMergedMessageList", () => {
  it("knows a long history the reducer returned, until its length changes", () => {
    const history = Array.from({ length: 20 }, (_, i) => human(`m${i}`));
    const merged = messagesStateReducer(history, { role: "user", content: "more", id: "m20" });
    expect(isMergedMessageList(merged)).toBe(true);
    expect(merged.every((m) => HumanMessage.isInstance(m))).toBe(true);
    // a list nobody merged, a short merged list, and a merged list pushed into are checked again
    expect(isMergedMessageList(history)).toBe(false);
    expect(isMergedMessageList(messagesStateReducer([], [human("a")]))).toBe(false);
    merged.push(human("pushed"));
    expect(isMergedMessageList(merged)).toBe(false);
  });
});
