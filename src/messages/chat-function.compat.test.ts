/**
 * Checks ChatMessage and FunctionMessage against LangChain.js (`@langchain/core` 1.4.0, a dev
 * dependency): the same messages must have the same type, stored and serialized forms, buffer
 * string and pretty print, guard answers and concatenation results. Documented differences
 * (docs/messages.md, "Differences from LangChain.js") are noted where they show.
 */
import * as lc from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import {
  type BaseMessage,
  ChatMessage,
  ChatMessageChunk,
  coerceMessageLikeToMessage,
  convertToChunk,
  FunctionMessage,
  FunctionMessageChunk,
  filterMessages,
  getBufferString,
  HumanMessage,
  isChatMessage,
  isChatMessageChunk,
  isFunctionMessage,
  isFunctionMessageChunk,
  mapStoredMessageToChatMessage,
  mergeMessageRuns,
} from "./index.js";

/** Plain JSON, so that undefined-valued keys and key order do not matter. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** The fields a message is made of (LangChain.js's `convertToChunk` also copies its `lc_*` internals). */
const fieldsOf = (message: BaseMessage | lc.BaseMessage): unknown =>
  plain({
    type: message.getType(),
    content: message.content,
    role: (message as { role?: string }).role,
    name: message.name,
    id: message.id,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  });

/** The same messages built by both libraries. */
function pairs(): Array<[BaseMessage, lc.BaseMessage]> {
  return [
    [new ChatMessage("Order in the court!", "judge"), new lc.ChatMessage("Order in the court!", "judge")],
    [
      new ChatMessage({ content: "Yes?", role: "clerk", id: "m2", name: "bob" }),
      new lc.ChatMessage({ content: "Yes?", role: "clerk", id: "m2", name: "bob" }),
    ],
    [
      new ChatMessage({ content: [{ type: "text", text: "blocks" }], role: "narrator" }),
      new lc.ChatMessage({ content: [{ type: "text", text: "blocks" }], role: "narrator" }),
    ],
    [new ChatMessageChunk("par", "judge"), new lc.ChatMessageChunk("par", "judge")],
    [
      new FunctionMessage({ content: '{"temp": 21}', name: "get_weather", id: "f1" }),
      new lc.FunctionMessage({ content: '{"temp": 21}', name: "get_weather", id: "f1" }),
    ],
    [
      new FunctionMessageChunk({ content: "21", name: "get_weather" }),
      new lc.FunctionMessageChunk({ content: "21", name: "get_weather" }),
    ],
  ];
}

describe("ChatMessage and FunctionMessage match LangChain.js", () => {
  it("have the same type, class name, role and name", () => {
    for (const [ours, theirs] of pairs()) {
      expect(ours.getType()).toBe(theirs.getType());
      expect(ours._getType()).toBe(theirs._getType());
      expect((ours.constructor as typeof ChatMessage).lc_name()).toBe(
        (theirs.constructor as typeof lc.ChatMessage).lc_name(),
      );
      expect((ours as { role?: string }).role).toBe((theirs as { role?: string }).role);
      expect(ours.name).toBe(theirs.name);
      expect(ours.content).toEqual(theirs.content);
      expect(ours.text).toBe(theirs.text);
    }
  });

  it("write the same stored and serialized forms", () => {
    for (const [ours, theirs] of pairs()) {
      expect(plain(ours.toDict())).toEqual(plain(theirs.toDict()));
      expect(plain(ours)).toEqual(plain(theirs));
    }
  });

  it("read each other's stored form back", () => {
    for (const [ours, theirs] of pairs()) {
      // the stored form names a type, not a class: it reads back as a whole message
      if (ChatMessageChunk.isInstance(ours) || FunctionMessageChunk.isInstance(ours)) continue;
      const fromTheirs = mapStoredMessageToChatMessage(plain(theirs.toDict()) as never);
      expect(fromTheirs.constructor).toBe(ours.constructor);
      expect(plain(fromTheirs.toDict())).toEqual(plain(theirs.toDict()));
      const fromOurs = lc.mapStoredMessageToChatMessage(plain(ours.toDict()) as never);
      expect(fromOurs.getType()).toBe(ours.getType());
      expect(plain(fromOurs.toDict())).toEqual(plain(ours.toDict()));
    }
  });

  it("pretty print the same text", () => {
    // (the JSON form follows LangChain.js's key order when the fields are given in the usual order;
    // its declarations type the format as "pretty" only, though "json" is implemented)
    for (const [ours, theirs] of pairs()) {
      expect(ours.toFormattedString()).toBe(theirs.toFormattedString());
      expect(ours.toFormattedString("json")).toBe(theirs.toFormattedString("json" as "pretty"));
    }
  });

  it("list the same printable fields", () => {
    const ours = new ChatMessage({ content: "x", role: "judge", id: "1" });
    const theirs = new lc.ChatMessage({ content: "x", role: "judge", id: "1" });
    expect(ours._printableFields).toEqual(theirs._printableFields);
    expect(new ChatMessageChunk("x", "r")._printableFields).toEqual(
      new lc.ChatMessageChunk("x", "r")._printableFields,
    );
  });

  it("render the same buffer string, and refuse function messages alike", () => {
    const ours = [
      new HumanMessage("Hi"),
      new ChatMessage("Order!", "judge"),
      new ChatMessage({ content: [{ type: "text", text: "Yes?" }], role: "clerk", name: "bob" }),
    ];
    const theirs = [
      new lc.HumanMessage("Hi"),
      new lc.ChatMessage("Order!", "judge"),
      new lc.ChatMessage({ content: [{ type: "text", text: "Yes?" }], role: "clerk", name: "bob" }),
    ];
    expect(getBufferString(ours)).toBe(lc.getBufferString(theirs));
    expect(getBufferString(ours, "User", "Bot")).toBe(lc.getBufferString(theirs, "User", "Bot"));
    const fn = () => getBufferString([new FunctionMessage({ content: "x", name: "f" })]);
    const lcFn = () => lc.getBufferString([new lc.FunctionMessage({ content: "x", name: "f" })]);
    expect(lcFn).toThrow("Got unsupported message type: function");
    expect(fn).toThrow("Got unsupported message type: function");
  });

  it("answer isInstance and the guards alike, for chunks and whole messages", () => {
    const ours = {
      chat: new ChatMessage("a", "r"),
      chatChunk: new ChatMessageChunk("a", "r"),
      fn: new FunctionMessage({ content: "a", name: "f" }),
      fnChunk: new FunctionMessageChunk({ content: "a", name: "f" }),
    };
    const theirs = {
      chat: new lc.ChatMessage("a", "r"),
      chatChunk: new lc.ChatMessageChunk("a", "r"),
      fn: new lc.FunctionMessage({ content: "a", name: "f" }),
      fnChunk: new lc.FunctionMessageChunk({ content: "a", name: "f" }),
    };
    const answers = (
      values: Record<string, unknown>,
      classes: Record<string, { isInstance(value: unknown): boolean }>,
      guards: Record<string, (value: never) => boolean>,
    ) =>
      Object.values(values).flatMap((value) => [
        ...Object.values(classes).map((cls) => cls.isInstance(value)),
        ...Object.values(guards).map((guard) => guard(value as never)),
      ]);
    expect(
      answers(
        ours,
        { ChatMessage, ChatMessageChunk, FunctionMessage, FunctionMessageChunk },
        { isChatMessage, isChatMessageChunk, isFunctionMessage, isFunctionMessageChunk },
      ),
    ).toEqual(
      answers(
        theirs,
        {
          ChatMessage: lc.ChatMessage,
          ChatMessageChunk: lc.ChatMessageChunk,
          FunctionMessage: lc.FunctionMessage,
          FunctionMessageChunk: lc.FunctionMessageChunk,
        },
        {
          isChatMessage: lc.isChatMessage,
          isChatMessageChunk: lc.isChatMessageChunk,
          isFunctionMessage: lc.isFunctionMessage,
          isFunctionMessageChunk: lc.isFunctionMessageChunk,
        },
      ),
    );
  });

  it("concatenate chunks alike (names kept: a documented difference)", () => {
    const ours = new ChatMessageChunk({ content: "a", role: "r1", additional_kwargs: { x: "1" } }).concat(
      new ChatMessageChunk({ content: "b", role: "r2", id: "id2", response_metadata: { m: 1 } }),
    );
    const theirs = new lc.ChatMessageChunk({
      content: "a",
      role: "r1",
      additional_kwargs: { x: "1" },
    }).concat(new lc.ChatMessageChunk({ content: "b", role: "r2", id: "id2", response_metadata: { m: 1 } }));
    expect(plain(ours.toDict())).toEqual(plain(theirs.toDict()));

    const fnOurs = new FunctionMessageChunk({ content: "[" }).concat(
      new FunctionMessageChunk({ content: "]", name: "f", id: "i" }),
    );
    const fnTheirs = new lc.FunctionMessageChunk({ content: "[" }).concat(
      new lc.FunctionMessageChunk({ content: "]", name: "f", id: "i" }),
    );
    expect(plain(fnOurs.toDict())).toEqual(plain(fnTheirs.toDict()));
    expect(fnOurs.name).toBe("");

    // LangChain.js drops a chat chunk's name when joining; agentgraph keeps the first present
    const named = new ChatMessageChunk({ content: "a", role: "r", name: "n" }).concat(
      new ChatMessageChunk({ content: "b", role: "r" }),
    );
    const lcNamed = new lc.ChatMessageChunk({ content: "a", role: "r", name: "n" }).concat(
      new lc.ChatMessageChunk({ content: "b", role: "r" }),
    );
    expect([named.name, lcNamed.name]).toEqual(["n", undefined]);
  });

  it("convert to chunks alike", () => {
    const ours = convertToChunk(new ChatMessage({ content: "a", role: "judge", id: "1" }));
    const theirs = lc.convertToChunk(new lc.ChatMessage({ content: "a", role: "judge", id: "1" }));
    expect((ours.constructor as typeof ChatMessage).lc_name()).toBe(
      (theirs.constructor as typeof lc.ChatMessage).lc_name(),
    );
    expect(fieldsOf(ours)).toEqual(fieldsOf(theirs));
    const fnOurs = convertToChunk(new FunctionMessage({ content: "a", name: "f" }));
    const fnTheirs = lc.convertToChunk(new lc.FunctionMessage({ content: "a", name: "f" }));
    expect((fnOurs.constructor as typeof ChatMessage).lc_name()).toBe(
      (fnTheirs.constructor as typeof lc.ChatMessage).lc_name(),
    );
    expect(fieldsOf(fnOurs)).toEqual(fieldsOf(fnTheirs));
  });

  it("filter by the same type strings and classes", () => {
    const ids = (list: readonly { id?: string | undefined }[]) => list.map((m) => m.id);
    const ours = [
      new ChatMessage({ content: "a", role: "r", id: "1" }),
      new FunctionMessage({ content: "b", name: "f", id: "2" }),
      new HumanMessage({ content: "c", id: "3" }),
    ];
    const theirs = [
      new lc.ChatMessage({ content: "a", role: "r", id: "1" }),
      new lc.FunctionMessage({ content: "b", name: "f", id: "2" }),
      new lc.HumanMessage({ content: "c", id: "3" }),
    ];
    for (const [mine, reference] of [
      [{ includeTypes: ["generic"] }, { includeTypes: ["generic"] }],
      [{ includeTypes: [FunctionMessage] }, { includeTypes: [lc.FunctionMessage] }],
      [{ excludeTypes: [ChatMessageChunk] }, { excludeTypes: [lc.ChatMessageChunk] }],
    ] as const) {
      expect(ids(filterMessages(ours, mine))).toEqual(ids(lc.filterMessages(theirs, reference as never)));
    }
  });

  it("merge runs alike: function messages, and chat messages of one role", () => {
    const ours = mergeMessageRuns([
      new ChatMessage({ content: "a", role: "judge", id: "1" }),
      new ChatMessage({ content: "b", role: "judge", id: "2" }),
      new FunctionMessage({ content: "x", name: "f1" }),
      new FunctionMessage({ content: "y", name: "f2" }),
    ]);
    const theirs = lc.mergeMessageRuns([
      new lc.ChatMessage({ content: "a", role: "judge", id: "1" }),
      new lc.ChatMessage({ content: "b", role: "judge", id: "2" }),
      new lc.FunctionMessage({ content: "x", name: "f1" }),
      new lc.FunctionMessage({ content: "y", name: "f2" }),
    ]);
    expect(ours.map(fieldsOf)).toEqual(theirs.map(fieldsOf));
    // LangChain.js also merges chat messages of different roles into the first role; agentgraph
    // keeps them apart (a documented difference)
    const mixed = [new ChatMessage("a", "judge"), new ChatMessage("b", "clerk")];
    expect(mergeMessageRuns(mixed)).toHaveLength(2);
    expect(
      lc.mergeMessageRuns([new lc.ChatMessage("a", "judge"), new lc.ChatMessage("b", "clerk")]),
    ).toHaveLength(1);
  });

  it("are not built from plain values by coercion", () => {
    for (const like of [
      { role: "generic", content: "x" },
      ["function", "x"],
      { role: "judge", content: "x" },
    ]) {
      expect(() => lc.coerceMessageLikeToMessage(like as never)).toThrow(/Unable to coerce message/);
      expect(() => coerceMessageLikeToMessage(like as never)).toThrow(/Unable to coerce message/);
    }
  });
});
