/**
 * quickMessage against the constructors it stands in for: for any stored fields it takes, the
 * same object as `new <Class>(fields)` — prototype, own properties in order, values — and the
 * serializer's round trip of any such message gives it back equal.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultSerializer } from "../graph/index.js";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "../messages/index.js";
import "./index.js";
import { quickMessage } from "./message-quick-revive.js";

const CLASSES: Readonly<
  Record<"HumanMessage" | "SystemMessage" | "AIMessage" | "ToolMessage", new (fields: never) => BaseMessage>
> = {
  HumanMessage,
  SystemMessage,
  AIMessage,
  ToolMessage,
};

const plain = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
  maxKeys: 3,
});
const toolCall = fc.record(
  {
    id: fc.string({ maxLength: 8 }),
    name: fc.string({ minLength: 1, maxLength: 8 }),
    args: plain,
    type: fc.constant("tool_call" as const),
  },
  { requiredKeys: ["name", "args", "type"] },
);
/** Stored fields as the encoder writes them, and some it never writes (other shapes). */
const fields = fc.record(
  {
    content: fc.oneof(fc.string(), fc.constant([{ type: "text", text: "block" }]), fc.constant(7)),
    id: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(undefined)),
    name: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(undefined), fc.constant(3)),
    additional_kwargs: fc.oneof(plain, fc.constant({ tool_calls: [] }), fc.constant([])),
    response_metadata: plain,
    tool_calls: fc.oneof(fc.array(toolCall, { maxLength: 2 }), fc.constant([{ name: "x", args: {} }])),
    usage_metadata: fc.oneof(
      fc.constant({ input_tokens: 1, output_tokens: 2, total_tokens: 3 }),
      fc.constant(undefined),
    ),
    tool_call_id: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(5)),
    status: fc.constantFrom("success", "error", "other"),
    artifact: fc.oneof(plain, fc.constant(undefined)),
    extra: fc.constant("not a field"),
  },
  { requiredKeys: [] },
);

function describeObject(message: object): unknown {
  return {
    prototype: Object.getPrototypeOf(message),
    keys: Reflect.ownKeys(message),
    values: Reflect.ownKeys(message).map((key) => (message as Record<PropertyKey, unknown>)[key]),
  };
}

describe("quickMessage", () => {
  it("builds what the constructor builds, or leaves the fields to it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(CLASSES) as (keyof typeof CLASSES)[])),
        fields,
        (name, kwargs) => {
          const quick = quickMessage(name, kwargs as Record<string, unknown>);
          if (quick === undefined) return;
          const built = new CLASSES[name](kwargs as never);
          expect(describeObject(quick)).toEqual(describeObject(built));
          expect(quick).toBeInstanceOf(CLASSES[name]);
          expect(quick.getType()).toBe(built.getType());
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("takes the fields the serializer stores for these classes", () => {
    const messages: BaseMessage[] = [
      new HumanMessage({ content: "hi", id: "h1", name: "ann" }),
      new SystemMessage("be brief"),
      new AIMessage({
        content: "calling",
        id: "a1",
        tool_calls: [{ id: "c1", name: "lookup", args: { q: "x" }, type: "tool_call" }],
        usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
        response_metadata: { model_name: "m" },
      }),
      new ToolMessage({
        content: "result",
        tool_call_id: "c1",
        id: "t1",
        status: "error",
        artifact: { raw: 1 },
      }),
    ];
    for (const message of messages) {
      const [className, kwargs] = (
        JSON.parse(defaultSerializer.encode(message)) as { v: [string, Record<string, unknown>] }
      ).v;
      const quick = quickMessage(className, kwargs);
      expect(quick, className).toBeDefined();
      expect(describeObject(quick as BaseMessage)).toEqual(describeObject(message));
      expect(defaultSerializer.decode(defaultSerializer.encode(message))).toEqual(message);
    }
  });

  it("stores a message of these classes as toJSON() gives its fields, empty defaults left out", () => {
    // subclasses with a toJSON() of their own (the parent's) keep the class name but are encoded
    // through toJSON()
    const VIA_TO_JSON: Readonly<Record<keyof typeof CLASSES, new (fields: never) => BaseMessage>> = {
      HumanMessage: class extends HumanMessage {
        override toJSON() {
          return super.toJSON();
        }
      },
      SystemMessage: class extends SystemMessage {
        override toJSON() {
          return super.toJSON();
        }
      },
      AIMessage: class extends AIMessage {
        override toJSON() {
          return super.toJSON();
        }
      },
      ToolMessage: class extends ToolMessage {
        override toJSON() {
          return super.toJSON();
        }
      },
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(CLASSES) as (keyof typeof CLASSES)[])),
        fields,
        fc.constantFrom(undefined, "art", { kind: "m" }),
        (name, kwargs, metadata) => {
          const withMetadata = { ...kwargs, ...(metadata === undefined ? {} : { metadata }) };
          let message: BaseMessage;
          try {
            message = new CLASSES[name](withMetadata as never);
          } catch {
            return;
          }
          const reference = new VIA_TO_JSON[name](withMetadata as never);
          expect(Object.getPrototypeOf(reference)).not.toBe(CLASSES[name].prototype);
          expect(defaultSerializer.encode(message)).toBe(defaultSerializer.encode(reference));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("leaves other classes and shapes to the constructors", () => {
    expect(quickMessage("AIMessageChunk", { content: "x" })).toBeUndefined();
    expect(
      quickMessage("AIMessage", { content: "x", additional_kwargs: { tool_calls: [] } }),
    ).toBeUndefined();
    expect(
      quickMessage("AIMessage", { content: "x", tool_calls: [{ name: "n", args: {} }] }),
    ).toBeUndefined();
    expect(quickMessage("ToolMessage", { content: "x" })).toBeUndefined();
    expect(quickMessage("HumanMessage", { content: [{ type: "text", text: "x" }] })).toBeUndefined();
  });
});
