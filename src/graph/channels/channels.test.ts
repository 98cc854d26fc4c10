import { describe, expect, it } from "vitest";
import { EmptyChannelError, InvalidUpdateError, Overwrite } from "../core/index.js";
import {
  AnyValue,
  type BaseChannel,
  BinaryOperatorAggregate,
  EphemeralValue,
  isBaseChannel,
  LastValue,
  LastValueAfterFinish,
  NamedBarrierValue,
  NamedBarrierValueAfterFinish,
  Topic,
  UntrackedValue,
} from "./index.js";

const concat = (a: number[], b: number[]) => a.concat(b);

describe("LastValue", () => {
  it("is empty until written: get() throws EmptyChannelError, isAvailable() is false", () => {
    const channel = new LastValue<number>();
    expect(channel.isAvailable()).toBe(false);
    expect(() => channel.get()).toThrow(EmptyChannelError);
    expect(channel.update([])).toBe(false);
    expect(channel.isAvailable()).toBe(false);
  });

  it("stores one write per step and reports the change", () => {
    const channel = new LastValue<number>();
    expect(channel.update([1])).toBe(true);
    expect(channel.get()).toBe(1);
    expect(channel.checkpoint()).toBe(1);
    expect(channel.update([2])).toBe(true);
    expect(channel.get()).toBe(2);
  });

  it("keeps its value through a step without writes", () => {
    const channel = new LastValue<number>();
    channel.update([3]);
    expect(channel.update([])).toBe(false);
    expect(channel.get()).toBe(3);
  });

  it("accepts undefined and null as legal values", () => {
    const a = new LastValue<undefined>();
    expect(a.update([undefined])).toBe(true);
    expect(a.isAvailable()).toBe(true);
    expect(a.get()).toBeUndefined();
    const b = new LastValue<null>();
    b.update([null]);
    expect(b.get()).toBeNull();
  });

  it("rejects two writes in one step with INVALID_CONCURRENT_GRAPH_UPDATE", () => {
    const channel = new LastValue<number>();
    let error: unknown;
    try {
      channel.update([1, 2]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect((error as InvalidUpdateError).message).toMatch(/^LastValue can only receive one value per step\./);
    expect((error as InvalidUpdateError).lc_error_code).toBe("INVALID_CONCURRENT_GRAPH_UPDATE");
  });

  it("ignores consume() and finish()", () => {
    const channel = new LastValue<number>();
    channel.update([3]);
    expect(channel.consume()).toBe(false);
    expect(channel.finish()).toBe(false);
    expect(channel.get()).toBe(3);
  });

  it("restores from its checkpoint into a new, independent channel", () => {
    const channel = new LastValue<number>();
    channel.update([3]);
    const copy = channel.fromCheckpoint(channel.checkpoint());
    expect(copy).not.toBe(channel);
    expect(copy).toBeInstanceOf(LastValue);
    expect(copy.get()).toBe(3);
    copy.update([4]);
    expect(channel.get()).toBe(3);
    expect(channel.fromCheckpoint(undefined).isAvailable()).toBe(false);
  });

  it("starts from its initial value factory", () => {
    const channel = new LastValue<number>(() => 7);
    expect(channel.isAvailable()).toBe(true);
    expect(channel.get()).toBe(7);
  });
});

describe("EphemeralValue", () => {
  it("holds a value for one step and clears after a step without writes", () => {
    const channel = new EphemeralValue<number>();
    expect(channel.update([1])).toBe(true);
    expect(channel.get()).toBe(1);
    expect(channel.update([])).toBe(true);
    expect(channel.isAvailable()).toBe(false);
    expect(channel.update([])).toBe(false);
  });

  it("rejects two writes in one step when guarded (the default)", () => {
    expect(() => new EphemeralValue().update([1, 2])).toThrow(
      /^EphemeralValue can only receive one value per step\./,
    );
  });

  it("keeps the last of several writes when unguarded", () => {
    const channel = new EphemeralValue<number>(false);
    expect(channel.update([1, 2])).toBe(true);
    expect(channel.get()).toBe(2);
  });

  it("restores with the same guard", () => {
    const channel = new EphemeralValue<number>(false);
    channel.update([5]);
    const copy = channel.fromCheckpoint(channel.checkpoint());
    expect(copy.get()).toBe(5);
    expect(copy.update([1, 2])).toBe(true);
  });
});

describe("BinaryOperatorAggregate", () => {
  it("folds every write with the reducer; the first write to an empty channel is stored as is", () => {
    const channel = new BinaryOperatorAggregate<number>((a, b) => a * 10 + b);
    expect(channel.isAvailable()).toBe(false);
    expect(channel.update([5])).toBe(true);
    expect(channel.get()).toBe(5);
    expect(channel.update([6, 7])).toBe(true);
    expect(channel.get()).toBe(567);
  });

  it("starts from the default and is unchanged by a step without writes", () => {
    const channel = new BinaryOperatorAggregate<number[]>(concat, () => []);
    expect(channel.isAvailable()).toBe(true);
    expect(channel.get()).toEqual([]);
    expect(channel.update([[1], [2]])).toBe(true);
    expect(channel.get()).toEqual([1, 2]);
    expect(channel.update([])).toBe(false);
    expect(channel.checkpoint()).toEqual([1, 2]);
  });

  it("replaces its value with an Overwrite and ignores later plain writes of that step", () => {
    const channel = new BinaryOperatorAggregate<number[]>(concat, () => [0]);
    expect(channel.update([[1], new Overwrite([9]) as never, [2]])).toBe(true);
    expect(channel.get()).toEqual([9]);
  });

  it("accepts the JSON form { __overwrite__: value }", () => {
    const channel = new BinaryOperatorAggregate<number[]>(concat, () => [0]);
    channel.update([[1], { __overwrite__: [9] } as never]);
    expect(channel.get()).toEqual([9]);
  });

  it("stores an Overwrite written to an empty channel unwrapped, then folds", () => {
    const channel = new BinaryOperatorAggregate<number[]>(concat);
    channel.update([new Overwrite([9]) as never, [2]]);
    expect(channel.get()).toEqual([9, 2]);
  });

  it("rejects two Overwrites in one step", () => {
    const channel = new BinaryOperatorAggregate<number[]>(concat, () => [0]);
    expect(() => channel.update([new Overwrite([1]) as never, new Overwrite([2]) as never])).toThrow(
      InvalidUpdateError,
    );
    expect(() =>
      new BinaryOperatorAggregate<number[]>(concat, () => []).update([
        new Overwrite([1]) as never,
        new Overwrite([2]) as never,
      ]),
    ).toThrow(/^Can receive only one Overwrite value per step\./);
  });

  it("is empty while its value is undefined (a default or a reducer result), as in LangGraph.js", () => {
    const blank = new BinaryOperatorAggregate<number | undefined>(
      (a, b) => (b === 0 ? undefined : a),
      () => undefined,
    );
    expect(blank.isAvailable()).toBe(false);
    expect(blank.update([1])).toBe(true);
    expect(blank.get()).toBe(1);
    blank.update([0]);
    expect(blank.isAvailable()).toBe(false);
    expect(() => blank.get()).toThrow(EmptyChannelError);
    // the next write starts it again, stored as is
    blank.update([7]);
    expect(blank.get()).toBe(7);
  });

  it("restores with the same reducer and default", () => {
    const channel = new BinaryOperatorAggregate<number[]>(concat, () => [0]);
    channel.update([[1]]);
    const copy = channel.fromCheckpoint(channel.checkpoint());
    copy.update([[2]]);
    expect(copy.get()).toEqual([0, 1, 2]);
    expect(channel.get()).toEqual([0, 1]);
    expect(channel.fromCheckpoint(undefined).get()).toEqual([0]);
  });
});

describe("Topic", () => {
  it("collects the writes of a step, flattening arrays one level, and clears the next step", () => {
    const channel = new Topic<number>();
    expect(channel.isAvailable()).toBe(false);
    expect(() => channel.get()).toThrow(EmptyChannelError);
    expect(channel.update([1, [2, 3], 2])).toBe(true);
    expect(channel.get()).toEqual([1, 2, 3, 2]);
    expect(channel.update([])).toBe(true);
    expect(channel.isAvailable()).toBe(false);
    expect(channel.update([])).toBe(false);
  });

  it("replaces the previous step's values with the new step's writes", () => {
    const channel = new Topic<number>();
    channel.update([1]);
    channel.update([2]);
    expect(channel.get()).toEqual([2]);
  });

  it("with unique, drops values already seen in this or an earlier step", () => {
    const channel = new Topic<number>({ unique: true });
    expect(channel.update([1, 1, 2])).toBe(true);
    expect(channel.get()).toEqual([1, 2]);
    expect(channel.update([2, 3])).toBe(true);
    expect(channel.get()).toEqual([3]);
  });

  it("with accumulate, keeps values across steps", () => {
    const channel = new Topic<number>({ accumulate: true });
    channel.update([1]);
    channel.update([[2, 3]]);
    expect(channel.get()).toEqual([1, 2, 3]);
    expect(channel.update([])).toBe(false);
    expect(channel.get()).toEqual([1, 2, 3]);
    expect(channel.checkpoint()).toEqual([1, 2, 3]);
  });

  it("restores values and, when unique, the values already seen", () => {
    const plain = new Topic<number>();
    plain.update([1, 2]);
    expect(plain.checkpoint()).toEqual([1, 2]);
    expect(plain.fromCheckpoint(plain.checkpoint()).get()).toEqual([1, 2]);
    const unique = new Topic<number>({ unique: true });
    unique.update([1, 2]);
    const copy = unique.fromCheckpoint(unique.checkpoint());
    expect(copy.get()).toEqual([1, 2]);
    expect(copy.update([1, 3])).toBe(true);
    expect(copy.get()).toEqual([3]);
  });
});

describe("NamedBarrierValue", () => {
  it("becomes available once every name has written, then consume() resets it", () => {
    const channel = new NamedBarrierValue(new Set(["a", "b"]));
    expect(channel.isAvailable()).toBe(false);
    expect(() => channel.get()).toThrow(EmptyChannelError);
    expect(channel.update(["a"])).toBe(true);
    expect(channel.isAvailable()).toBe(false);
    expect(channel.update(["a"])).toBe(false);
    expect(channel.consume()).toBe(false);
    expect(channel.update(["b"])).toBe(true);
    expect(channel.isAvailable()).toBe(true);
    expect(channel.get()).toBeUndefined();
    expect(channel.consume()).toBe(true);
    expect(channel.isAvailable()).toBe(false);
    expect(channel.consume()).toBe(false);
  });

  it("rejects a name that is not one of its sources", () => {
    expect(() => new NamedBarrierValue(new Set(["a", "b"])).update(["z"])).toThrow(/^Value "z" not in names/);
  });

  it("restores the names seen so far", () => {
    const channel = new NamedBarrierValue(["a", "b"]);
    channel.update(["a"]);
    expect(channel.checkpoint()).toEqual(["a"]);
    const copy = channel.fromCheckpoint(channel.checkpoint());
    expect(copy.update(["b"])).toBe(true);
    expect(copy.isAvailable()).toBe(true);
    expect(channel.isAvailable()).toBe(false);
  });
});

describe("NamedBarrierValueAfterFinish", () => {
  it("is available only after finish(), once complete, and consume() resets it", () => {
    const channel = new NamedBarrierValueAfterFinish(new Set(["a", "b"]));
    expect(channel.update(["a"])).toBe(true);
    expect(channel.finish()).toBe(false);
    expect(channel.update(["b"])).toBe(true);
    expect(channel.isAvailable()).toBe(false);
    expect(channel.consume()).toBe(false);
    expect(channel.finish()).toBe(true);
    expect(channel.isAvailable()).toBe(true);
    expect(channel.finish()).toBe(false);
    expect(channel.consume()).toBe(true);
    expect(channel.isAvailable()).toBe(false);
    expect(channel.finish()).toBe(false);
  });

  it("restores names and the finished flag", () => {
    const channel = new NamedBarrierValueAfterFinish(["a", "b"]);
    channel.update(["a", "b"]);
    channel.finish();
    expect(channel.checkpoint()).toEqual([["a", "b"], true]);
    expect(channel.fromCheckpoint(channel.checkpoint()).isAvailable()).toBe(true);
  });
});

describe("LastValueAfterFinish", () => {
  it("hides its value until finish(), then consume() clears it", () => {
    const channel = new LastValueAfterFinish<number>();
    expect(channel.update([1])).toBe(true);
    expect(channel.isAvailable()).toBe(false);
    expect(() => channel.get()).toThrow(EmptyChannelError);
    expect(channel.checkpoint()).toEqual([1, false]);
    expect(channel.consume()).toBe(false);
    expect(channel.finish()).toBe(true);
    expect(channel.isAvailable()).toBe(true);
    expect(channel.get()).toBe(1);
    expect(channel.checkpoint()).toEqual([1, true]);
    expect(channel.finish()).toBe(false);
    expect(channel.consume()).toBe(true);
    expect(channel.isAvailable()).toBe(false);
  });

  it("restores value and finished flag", () => {
    const channel = new LastValueAfterFinish<number>();
    channel.update([1]);
    channel.finish();
    const copy = channel.fromCheckpoint(channel.checkpoint());
    expect(copy.isAvailable()).toBe(true);
    expect(copy.get()).toBe(1);
  });

  it("a new write hides the value again until the next finish()", () => {
    const channel = new LastValueAfterFinish<number>();
    channel.update([1]);
    channel.finish();
    channel.update([2]);
    expect(channel.isAvailable()).toBe(false);
    channel.finish();
    expect(channel.get()).toBe(2);
  });
});

describe("AnyValue", () => {
  it("keeps the last of several writes and clears after an empty step", () => {
    const channel = new AnyValue<number>();
    expect(channel.update([1, 2])).toBe(true);
    expect(channel.get()).toBe(2);
    expect(channel.update([])).toBe(true);
    expect(channel.isAvailable()).toBe(false);
    expect(channel.update([])).toBe(false);
  });
});

describe("UntrackedValue", () => {
  it("holds a value but never checkpoints it", () => {
    const channel = new UntrackedValue<number>();
    expect(channel.update([1])).toBe(true);
    expect(channel.get()).toBe(1);
    expect(channel.checkpoint()).toBeUndefined();
    expect(channel.fromCheckpoint().isAvailable()).toBe(false);
  });

  it("rejects several writes per step unless guard is false", () => {
    expect(() => new UntrackedValue().update([1, 2])).toThrow(InvalidUpdateError);
    const unguarded = new UntrackedValue<number>({ guard: false });
    unguarded.update([1, 2]);
    expect(unguarded.get()).toBe(2);
  });

  it("starts every restored copy from its initial value factory", () => {
    const channel = new UntrackedValue<number>({ initialValueFactory: () => 4 });
    channel.update([9]);
    expect(channel.fromCheckpoint().get()).toBe(4);
  });
});

describe("channel identity", () => {
  it("reports the LangGraph.js class names and is recognised as a channel", () => {
    const channels: [BaseChannel, string][] = [
      [new LastValue(), "LastValue"],
      [new EphemeralValue(), "EphemeralValue"],
      [new BinaryOperatorAggregate((a: number) => a), "BinaryOperatorAggregate"],
      [new Topic(), "Topic"],
      [new NamedBarrierValue(["a"]), "NamedBarrierValue"],
      [new NamedBarrierValueAfterFinish(["a"]), "NamedBarrierValueAfterFinish"],
      [new LastValueAfterFinish(), "LastValueAfterFinish"],
      [new AnyValue(), "AnyValue"],
    ];
    for (const [channel, name] of channels) {
      expect(channel.constructor.name).toBe(name);
      expect(channel.lc_graph_name).toBe(name);
      expect(isBaseChannel(channel)).toBe(true);
    }
    expect(isBaseChannel({})).toBe(false);
    expect(isBaseChannel({ lg_is_channel: true })).toBe(true);
  });
});

describe("Overwrite, as LangGraph.js's", () => {
  it("holds its value in __overwrite__ (read through value) and recognizes itself and its JSON form", () => {
    const overwrite = new Overwrite([3]);
    expect([overwrite.__overwrite__, overwrite.value]).toEqual([[3], [3]]);
    expect({ ...overwrite }).toEqual({ lg_name: "Overwrite", __overwrite__: [3] });
    expect(overwrite.toJSON()).toEqual({ __overwrite__: [3] });
    expect(Overwrite.isInstance(overwrite)).toBe(true);
    expect(Overwrite.isInstance({ __overwrite__: 1 })).toBe(true);
    expect(Overwrite.isInstance({ lg_name: "Overwrite" })).toBe(true);
    expect([Overwrite.isInstance(null), Overwrite.isInstance([3]), Overwrite.isInstance("x")]).toEqual([
      false,
      false,
      false,
    ]);
  });
});
