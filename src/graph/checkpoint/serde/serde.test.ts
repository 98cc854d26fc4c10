import { describe, expect, it } from "vitest";
import { AgentGraphError, InvalidArgumentError } from "../../../shared/index.js";
import { Command, Overwrite, Send } from "../../core/index.js";
import {
  decodeJsonList,
  decodeKeyedJson,
  isSyncSerializer,
  JsonPlusSerializer,
  registerSerializable,
  SerializationError,
  defaultSerializer as serde,
} from "./index.js";

const roundTrip = <T>(value: T): T => serde.decode(serde.encode(value)) as T;

describe("JsonPlusSerializer: built-in tags", () => {
  it("writes JSON values unchanged", () => {
    const value = { a: 1, b: "x", c: [true, null, { d: 2.5 }] };
    expect(serde.encode(value)).toBe(JSON.stringify(value));
    expect(roundTrip(value)).toStrictEqual(value);
  });

  it("undefined, at the top, in objects and in arrays", () => {
    expect(serde.encode(undefined)).toBe('{"~t":"u"}');
    expect(roundTrip(undefined)).toBeUndefined();
    const back = roundTrip({ a: undefined, b: [undefined, 1] });
    expect(back).toStrictEqual({ a: undefined, b: [undefined, 1] });
    expect(Object.hasOwn(back, "a")).toBe(true);
  });

  it("sparse arrays: holes come back as undefined", () => {
    // biome-ignore lint/suspicious/noSparseArray: the point of the test
    const back = roundTrip([1, , 3]);
    expect(back).toHaveLength(3);
    expect(1 in back).toBe(true);
    expect(back[1]).toBeUndefined();
  });

  it("NaN, ±Infinity and -0", () => {
    expect(roundTrip(Number.NaN)).toBeNaN();
    expect(roundTrip([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])).toStrictEqual([
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]);
    expect(Object.is(roundTrip(-0), -0)).toBe(true);
    expect(serde.encode({ n: Number.NaN })).toBe('{"n":{"~t":"n","v":"NaN"}}');
  });

  it("BigInt", () => {
    expect(roundTrip(12345678901234567890n)).toBe(12345678901234567890n);
    expect(roundTrip(-3n)).toBe(-3n);
    expect(serde.encode(5n)).toBe('{"~t":"bi","v":"5"}');
  });

  it("Date, including an invalid one", () => {
    const date = new Date("2024-05-06T07:08:09.010Z");
    const back = roundTrip({ date });
    expect(back.date).toBeInstanceOf(Date);
    expect(back.date.getTime()).toBe(date.getTime());
    expect(Number.isNaN(roundTrip(new Date(Number.NaN)).getTime())).toBe(true);
  });

  it("Map and Set, with any keys and nested values", () => {
    const map = new Map<unknown, unknown>([
      ["a", new Date(0)],
      [1, undefined],
      [{ k: 1 }, new Set([1, "x"])],
    ]);
    const back = roundTrip(map);
    expect(back).toBeInstanceOf(Map);
    expect(back).toStrictEqual(map);
    expect(roundTrip(new Set([1, 2n, "x"]))).toStrictEqual(new Set([1, 2n, "x"]));
  });

  it("RegExp keeps source and flags", () => {
    const back = roundTrip(/a[b-c]+\//giu);
    expect(back).toBeInstanceOf(RegExp);
    expect(back.source).toBe("a[b-c]+\\/");
    expect(back.flags).toBe("giu");
  });

  it("Error: name, message, stack, cause and own fields, as a plain Error", () => {
    class HttpError extends Error {
      status = 503;
      override name = "HttpError";
    }
    const error = new HttpError("unavailable", { cause: new TypeError("socket") });
    const back = roundTrip(error);
    expect(back).toBeInstanceOf(Error);
    expect(back).not.toBeInstanceOf(HttpError);
    expect(Object.getPrototypeOf(back)).toBe(Error.prototype);
    expect(back.name).toBe("HttpError");
    expect(back.message).toBe("unavailable");
    expect(back.stack).toBe(error.stack);
    expect(back.status).toBe(503);
    expect(back.cause).toBeInstanceOf(Error);
    expect((back.cause as Error).name).toBe("TypeError");
    expect((back.cause as Error).message).toBe("socket");
  });

  it("agentgraph errors come back as plain errors with their code", () => {
    const back = roundTrip(new InvalidArgumentError("bad", { code: "BAD" })) as Error & { code: string };
    expect(back.name).toBe("InvalidArgumentError");
    expect(back.code).toBe("BAD");
    expect(back instanceof AgentGraphError).toBe(false);
  });

  it("typed arrays, DataView and ArrayBuffer", () => {
    const views = [
      new Uint8Array([0, 255, 7]),
      new Int8Array([-1, 2]),
      new Uint8ClampedArray([9]),
      new Int16Array([-300, 300]),
      new Uint16Array([65535]),
      new Int32Array([-5, 1 << 30]),
      new Uint32Array([4294967295]),
      new Float32Array([1.5, Number.NaN]),
      new Float64Array([Math.PI, -0]),
      new BigInt64Array([-(2n ** 63n)]),
      new BigUint64Array([2n ** 64n - 1n]),
    ];
    for (const view of views) {
      const back = roundTrip(view);
      expect(back.constructor).toBe(view.constructor);
      expect(back).toStrictEqual(view);
    }
    const sub = new Uint8Array([1, 2, 3, 4]).subarray(1, 3);
    expect(roundTrip(sub)).toStrictEqual(new Uint8Array([2, 3]));
    const buffer = new Uint8Array([4, 5, 6]).buffer;
    const backBuffer = roundTrip(buffer);
    expect(backBuffer).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(backBuffer)]).toEqual([4, 5, 6]);
    const view = new DataView(new Uint8Array([1, 2]).buffer);
    const backView = roundTrip(view);
    expect(backView).toBeInstanceOf(DataView);
    expect(backView.getUint8(1)).toBe(2);
  });

  it("nested structures mixing everything", () => {
    const value = {
      list: [new Map([["d", new Date(1)]]), { s: new Set([undefined]) }],
      deep: { deeper: { n: 1n, u: undefined, bytes: new Uint8Array([1]) } },
    };
    expect(roundTrip(value)).toStrictEqual(value);
  });

  it("functions and symbols are dropped as JSON drops them", () => {
    expect(roundTrip({ f: () => 1, s: Symbol("x"), k: 1 })).toStrictEqual({ k: 1 });
    expect(roundTrip([() => 1])).toStrictEqual([null]);
    expect(roundTrip(() => 1)).toBeUndefined();
  });
});

describe("JsonPlusSerializer: escaping", () => {
  it("a plain object with the tag key is escaped and comes back unchanged", () => {
    const value = { "~t": "u", v: "not a tag" };
    const text = serde.encode(value);
    expect(text).toBe('{"~t":"o","v":{"~t":"u","v":"not a tag"}}');
    expect(roundTrip(value)).toStrictEqual(value);
  });

  it("escaped objects still encode their values", () => {
    const value = { "~t": { "~t": 1 }, when: new Date(5), nothing: undefined };
    expect(roundTrip(value)).toStrictEqual(value);
  });

  it("objects that look like tags of other serializers stay plain objects", () => {
    const value = { lc: 2, type: "undefined" };
    expect(roundTrip(value)).toStrictEqual(value);
  });

  it("__proto__ keys stay data and never touch prototypes", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "x": {"~t": "u"}}');
    const back = serde.decode(serde.encode(value)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const escaped = serde.decode('{"~t":"o","v":{"__proto__":{"polluted":true},"~t":1}}') as object;
    expect(Object.getPrototypeOf(escaped)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("null-prototype objects come back as plain objects", () => {
    const value = Object.assign(Object.create(null) as object, { a: 1 });
    expect(roundTrip(value)).toStrictEqual({ a: 1 });
  });
});

describe("JsonPlusSerializer: class instances", () => {
  it("the engine's Send, Command and Overwrite come back as instances", () => {
    const send = roundTrip(new Send("worker", { at: new Date(3) }));
    expect(send).toBeInstanceOf(Send);
    expect(send).toStrictEqual(new Send("worker", { at: new Date(3) }));
    const command = roundTrip(new Command({ goto: [new Send("a", 1), "b"], update: { x: 1 }, resume: "ok" }));
    expect(command).toBeInstanceOf(Command);
    expect(command.goto[0]).toBeInstanceOf(Send);
    expect(command.goto[1]).toBe("b");
    expect(command.update).toStrictEqual({ x: 1 });
    expect(command.resume).toBe("ok");
    const parent = roundTrip(new Command({ graph: Command.PARENT, goto: "x" }));
    expect(parent.graph).toBe(Command.PARENT);
    const overwrite = roundTrip(new Overwrite([1, 2]));
    expect(overwrite).toBeInstanceOf(Overwrite);
    expect(overwrite.value).toStrictEqual([1, 2]);
  });

  it("unregistered class instances are stored as plain objects of their own enumerable fields", () => {
    class Point {
      constructor(
        public x: number,
        public y: number | undefined,
      ) {}
      get norm(): number {
        return this.x;
      }
    }
    const back = roundTrip(new Point(1, undefined));
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(back).toStrictEqual({ x: 1, y: undefined });
  });

  it("unregistered class instances with toJSON are stored as toJSON() returns", () => {
    class Money {
      constructor(private readonly cents: number) {}
      toJSON() {
        return { amount: this.cents / 100, at: new Date(0) };
      }
    }
    expect(roundTrip(new Money(250))).toStrictEqual({ amount: 2.5, at: new Date(0) });
  });

  it("boxed primitives are stored as their primitive", () => {
    expect(roundTrip([new String("s"), new Number(2), new Boolean(false)])).toStrictEqual(["s", 2, false]);
  });
});

describe("registerSerializable", () => {
  class Money {
    constructor(
      readonly cents: bigint,
      readonly currency: string,
    ) {}
  }

  it("round-trips a registered class, encoding its data with the serializer", () => {
    const unregister = registerSerializable<Money, [bigint, string]>({
      tag: "test.Money",
      test: (value) => value instanceof Money,
      encode: (money) => [money.cents, money.currency],
      decode: ([cents, currency]) => new Money(cents, currency),
    });
    try {
      const text = serde.encode({ price: new Money(250n, "EUR") });
      expect(text).toBe('{"price":{"~t":"test.Money","v":[{"~t":"bi","v":"250"},"EUR"]}}');
      const back = serde.decode(text) as { price: Money };
      expect(back.price).toBeInstanceOf(Money);
      expect(back.price).toStrictEqual(new Money(250n, "EUR"));
    } finally {
      unregister();
    }
    expect(roundTrip(new Money(1n, "USD"))).toStrictEqual({ cents: 1n, currency: "USD" });
  });

  it("after unregistering, stored data with the tag is a SerializationError naming it", () => {
    const unregister = registerSerializable({
      tag: "test.Gone",
      test: (value) => value instanceof Money,
      encode: () => 1,
      decode: () => new Money(1n, "X"),
    });
    const text = serde.encode(new Money(1n, "X"));
    unregister();
    expect(() => serde.decode(text)).toThrow(SerializationError);
    expect(() => serde.decode(text)).toThrow(/"test\.Gone"/);
  });

  it("rejects reserved, empty and duplicate tags with InvalidArgumentError", () => {
    const type = { test: () => false, encode: () => 0, decode: () => 0 };
    expect(() => registerSerializable({ ...type, tag: "d" })).toThrow(InvalidArgumentError);
    expect(() => registerSerializable({ ...type, tag: "u8" })).toThrow(/reserved/);
    expect(() => registerSerializable({ ...type, tag: "" })).toThrow(InvalidArgumentError);
    expect(() => registerSerializable({ ...type, tag: "send" })).toThrow(/already registered/);
    const entry = { ...type, tag: "test.Twice" };
    const unregister = registerSerializable(entry);
    expect(() => registerSerializable(entry)).not.toThrow();
    expect(() => registerSerializable({ ...entry })).toThrow(/already registered/);
    unregister();
  });

  it("an encode() that throws is a SerializationError naming the tag", () => {
    const unregister = registerSerializable({
      tag: "test.Broken",
      test: (value) => value instanceof Money,
      encode: () => {
        throw new Error("nope");
      },
      decode: () => 0,
    });
    try {
      expect(() => serde.encode(new Money(1n, "X"))).toThrow(/"test\.Broken".*nope/);
    } finally {
      unregister();
    }
  });
});

describe("JsonPlusSerializer: corrupt input", () => {
  const cases: [string, string, RegExp][] = [
    ["truncated JSON", '{"a": [1, 2', /not valid JSON/],
    ["empty text", "", /not valid JSON/],
    ["unknown tag", '{"~t":"nope","v":1}', /"nope"/],
    ["non-string tag", '{"~t":5}', /must be a string/],
    ["bad number", '{"~t":"n","v":"12"}', /"n"/],
    ["bad bigint", '{"~t":"bi","v":"1.5"}', /"bi"/],
    ["bad date", '{"~t":"d","v":5}', /"d"/],
    ["bad map", '{"~t":"map","v":[[1]]}', /"map"/],
    ["bad set", '{"~t":"set","v":{}}', /"set"/],
    ["bad regexp", '{"~t":"re","v":["(", ""]}', /"re"/],
    ["bad error", '{"~t":"err","v":{"name":"E"}}', /"err"/],
    ["bad escaped object", '{"~t":"o","v":[1]}', /"o"/],
    ["bad base64", '{"~t":"u8","v":"!!!"}', /"u8"/],
    ["odd typed array length", '{"~t":"f32","v":"AAA="}', /"f32"/],
    ["bad registered payload", '{"~t":"send","v":null}', /"send"/],
  ];
  for (const [name, text, message] of cases) {
    it(`${name} is a SerializationError`, () => {
      let caught: unknown;
      try {
        serde.decode(text);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SerializationError);
      expect((caught as SerializationError).code).toBe("SERIALIZATION_ERROR");
      expect((caught as Error).message).toMatch(message);
    });
  }

  it('a reference to an ancestor is written "[Circular]", as LangGraph.js writes it; shared ones stay', () => {
    const shared = { n: 1 };
    const value: Record<string, unknown> = {
      a: shared,
      b: [shared, new Map([["m", shared]])],
      when: new Date(0),
    };
    value.self = value;
    (value.b as unknown[]).push(value);
    const back = roundTrip(value) as Record<string, unknown>;
    expect(back).toEqual({
      a: { n: 1 },
      b: [{ n: 1 }, new Map([["m", { n: 1 }]]), "[Circular]"],
      when: new Date(0),
      self: "[Circular]",
    });
    // the value given is left as it was
    expect(value.self).toBe(value);
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 100_000; i++) at = at.next = {};
    expect(() => serde.encode(deep)).toThrow(SerializationError);
  });

  it("a throwing toJSON() is a SerializationError that says so", () => {
    const value = {
      toJSON() {
        throw new Error("broken");
      },
    };
    expect(() => serde.encode(new (class {})())).not.toThrow();
    expect(() => serde.encode([Object.setPrototypeOf(value, { marker: true })])).toThrow(/broken.*toJSON/);
  });

  it("invalid UTF-8 bytes and unknown types are SerializationErrors", async () => {
    await expect(serde.loadsTyped("json", new Uint8Array([0xff, 0xfe]))).rejects.toThrow(SerializationError);
    await expect(serde.loadsTyped("pickle", "{}")).rejects.toThrow(/Unknown serialization type: pickle/);
  });
});

describe("JsonPlusSerializer: SerializerProtocol", () => {
  it("dumpsTyped writes json as UTF-8 and bytes as themselves", async () => {
    const serializer = new JsonPlusSerializer();
    const [type, bytes] = await serializer.dumpsTyped({ text: "héllo" });
    expect(type).toBe("json");
    expect(new TextDecoder().decode(bytes)).toBe('{"text":"héllo"}');
    expect(await serializer.loadsTyped(type, bytes)).toStrictEqual({ text: "héllo" });
    expect(await serializer.loadsTyped("json", '{"a":1}')).toStrictEqual({ a: 1 });
    const raw = new Uint8Array([1, 2]);
    expect(await serializer.dumpsTyped(raw)).toStrictEqual(["bytes", raw]);
    expect(await serializer.loadsTyped("bytes", raw)).toBe(raw);
  });

  it("isSyncSerializer tells the fast path apart", () => {
    expect(isSyncSerializer(serde)).toBe(true);
    expect(
      isSyncSerializer({ dumpsTyped: async () => ["json", new Uint8Array()], loadsTyped: async () => 1 }),
    ).toBe(false);
  });
});

describe("decoding many stored values with one parse", () => {
  const at = new Date(Date.UTC(2026, 0, 1));
  const texts = [
    serde.encode({ "~t": "x", v: 1 }), // an escaped object that looks tagged
    serde.encode(at),
    serde.encode(["ends with ~t", new Set([1])]),
    serde.encode("plain"),
  ];

  it("revives tags at the top and inside values alike", () => {
    expect(decodeJsonList(`[${texts.join(",")}]`, texts.length)).toStrictEqual([
      { "~t": "x", v: 1 },
      at,
      ["ends with ~t", new Set([1])],
      "plain",
    ]);
    const keyed = `["a",${texts[1]},"b",${texts[2]}]`;
    expect(decodeKeyedJson(keyed, 2, new Set(["b"]))).toStrictEqual(
      new Map([["b", ["ends with ~t", new Set([1])]]]),
    );
  });

  it("answers undefined for a text that is not the array it should be, so each value is decoded alone", () => {
    expect(decodeJsonList("[1,2", 2)).toBeUndefined();
    expect(decodeJsonList("[1,2,3]", 2)).toBeUndefined();
    expect(decodeJsonList('{"a":1}', 1)).toBeUndefined();
    expect(decodeKeyedJson('["a",1,"b"]', 2, new Set(["a"]))).toBeUndefined();
    // an extra pair slipped into one item's text
    expect(decodeKeyedJson('["a",1,"c",3,"b",2]', 2, new Set(["a"]))).toBeUndefined();
    expect(decodeKeyedJson('[1,1,"b",2]', 2, new Set(["b"]))).toBeUndefined();
    expect(decodeKeyedJson('["a",1,"a",2]', 2, new Set(["a"]))).toBeUndefined();
  });

  it("throws the error decoding that value alone throws", () => {
    const bad = '{"~t":"no-such-tag","v":1}';
    const alone = (() => {
      try {
        serde.decode(bad);
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(alone).toBeInstanceOf(SerializationError);
    expect(() => decodeJsonList(`[1,${bad}]`, 2)).toThrow((alone as Error).message);
    expect(() => decodeKeyedJson(`["a",${bad}]`, 1, new Set(["a"]))).toThrow((alone as Error).message);
  });
});
