import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Overwrite } from "../core/index.js";
import {
  AnyValue,
  type BaseChannel,
  BinaryOperatorAggregate,
  EphemeralValue,
  LastValue,
  LastValueAfterFinish,
  NamedBarrierValue,
  NamedBarrierValueAfterFinish,
  Topic,
} from "./index.js";

/** One thing the engine may do to a channel between two checkpoints. */
type Op = { kind: "update"; values: unknown[] } | { kind: "consume" } | { kind: "finish" };

interface ChannelSpec {
  name: string;
  make: () => BaseChannel;
  /** Writes of one superstep that the channel accepts without error. */
  step: fc.Arbitrary<unknown[]>;
}

const value = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.string({ maxLength: 2 }), fc.constant(null));
const upToOne = fc.array(value, { maxLength: 1 });
const names = fc.subarray(["a", "b", "c"]);

const SPECS: ChannelSpec[] = [
  { name: "LastValue", make: () => new LastValue(), step: upToOne },
  { name: "LastValue with default", make: () => new LastValue(() => 0), step: upToOne },
  { name: "EphemeralValue", make: () => new EphemeralValue(), step: upToOne },
  { name: "EphemeralValue unguarded", make: () => new EphemeralValue(false), step: fc.array(value) },
  { name: "AnyValue", make: () => new AnyValue(), step: fc.array(value) },
  {
    name: "BinaryOperatorAggregate",
    make: () => new BinaryOperatorAggregate<number[]>((a, b) => a.concat(b)),
    step: fc.array(fc.array(fc.integer(), { maxLength: 3 }), { maxLength: 3 }),
  },
  {
    name: "BinaryOperatorAggregate with default and Overwrite",
    make: () =>
      new BinaryOperatorAggregate<number[]>(
        (a, b) => a.concat(b),
        () => [0],
      ),
    step: fc
      .tuple(
        fc.array(fc.array(fc.integer(), { maxLength: 2 }), { maxLength: 3 }),
        fc.option(fc.array(fc.integer(), { maxLength: 2 })),
        fc.nat(),
      )
      .map(([plain, overwrite, at]) => {
        if (overwrite === null) return plain;
        const out: unknown[] = [...plain];
        out.splice(at % (plain.length + 1), 0, new Overwrite(overwrite));
        return out;
      }),
  },
  { name: "Topic", make: () => new Topic(), step: fc.array(fc.oneof(value, fc.array(value))) },
  { name: "Topic unique", make: () => new Topic({ unique: true }), step: fc.array(value) },
  {
    name: "Topic accumulate",
    make: () => new Topic({ accumulate: true }),
    step: fc.array(fc.oneof(value, fc.array(value))),
  },
  { name: "NamedBarrierValue", make: () => new NamedBarrierValue(["a", "b", "c"]), step: names },
  {
    name: "NamedBarrierValueAfterFinish",
    make: () => new NamedBarrierValueAfterFinish(["a", "b", "c"]),
    step: names,
  },
  { name: "LastValueAfterFinish", make: () => new LastValueAfterFinish(), step: upToOne },
];

function opsOf(step: fc.Arbitrary<unknown[]>): fc.Arbitrary<Op[]> {
  return fc.array(
    fc.oneof(
      { weight: 4, arbitrary: step.map((values): Op => ({ kind: "update", values })) },
      { weight: 1, arbitrary: fc.constant<Op>({ kind: "consume" }) },
      { weight: 1, arbitrary: fc.constant<Op>({ kind: "finish" }) },
    ),
    { maxLength: 8 },
  );
}

function apply(channel: BaseChannel, op: Op): boolean {
  if (op.kind === "update") return channel.update(op.values);
  return op.kind === "consume" ? channel.consume() : channel.finish();
}

/** What can be observed of a channel from the outside. */
function observe(channel: BaseChannel): unknown {
  const available = channel.isAvailable();
  return { available, value: available ? channel.get() : "<empty>", checkpoint: channel.checkpoint() };
}

describe("channel checkpoints (property)", () => {
  for (const spec of SPECS) {
    it(`${spec.name}: fromCheckpoint(checkpoint()) restores an equal channel`, () => {
      fc.assert(
        fc.property(opsOf(spec.step), opsOf(spec.step), (before, after) => {
          const original = spec.make();
          for (const op of before) apply(original, op);
          const restored = original.fromCheckpoint(
            structuredClone(original.checkpoint()) as never,
          ) as BaseChannel;
          expect(restored).not.toBe(original);
          expect(restored.constructor).toBe(original.constructor);
          expect(observe(restored)).toEqual(observe(original));
          // …and it keeps behaving the same afterwards.
          for (const op of after) {
            expect(apply(restored, op)).toBe(apply(original, op));
            expect(observe(restored)).toEqual(observe(original));
          }
        }),
        { numRuns: 150 },
      );
    });
  }
});

describe("BinaryOperatorAggregate folding (property)", () => {
  const reducers: [string, (a: number, b: number) => number][] = [
    ["sum", (a, b) => a + b],
    ["max", (a, b) => Math.max(a, b)],
    ["min", (a, b) => Math.min(a, b)],
  ];
  for (const [name, reducer] of reducers) {
    it(`${name}: the result does not depend on the order of the writes`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 12 }),
          fc.option(fc.integer({ min: -1000, max: 1000 })),
          fc.infiniteStream(fc.nat()),
          (writes, initial, seeds) => {
            const fold = (values: number[]) => {
              const channel = new BinaryOperatorAggregate<number>(
                reducer,
                initial === null ? undefined : () => initial,
              );
              channel.update(values);
              return channel.get();
            };
            const shuffled = [...writes];
            const it = seeds[Symbol.iterator]();
            for (let i = shuffled.length - 1; i > 0; i--) {
              const j = (it.next().value as number) % (i + 1);
              [shuffled[i], shuffled[j]] = [shuffled[j] as number, shuffled[i] as number];
            }
            expect(fold(shuffled)).toBe(fold(writes));
            const expected =
              initial === null
                ? writes.slice(1).reduce(reducer, writes[0] as number)
                : writes.reduce(reducer, initial);
            expect(fold(writes)).toBe(expected);
          },
        ),
      );
    });
  }

  it("writes split across steps fold to the same value as one step", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer(), { maxLength: 4 }), { maxLength: 6 }), (steps) => {
        const stepwise = new BinaryOperatorAggregate<number>(
          (a, b) => a + b,
          () => 0,
        );
        for (const step of steps) stepwise.update(step);
        const once = new BinaryOperatorAggregate<number>(
          (a, b) => a + b,
          () => 0,
        );
        once.update(steps.flat());
        expect(stepwise.get()).toBe(once.get());
      }),
    );
  });

  it("a step with one Overwrite ends with exactly the overwritten value", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 4 }),
        fc.array(fc.integer(), { maxLength: 4 }),
        fc.array(fc.integer(), { maxLength: 4 }),
        fc.array(fc.integer(), { maxLength: 4 }),
        (initial, before, overwrite, after) => {
          const channel = new BinaryOperatorAggregate<number[]>(
            (a, b) => a.concat(b),
            () => initial,
          );
          const writes = [...before.map((n) => [n]), new Overwrite(overwrite), ...after.map((n) => [n])];
          expect(channel.update(writes as never[])).toBe(true);
          expect(channel.get()).toEqual(overwrite);
        },
      ),
    );
  });
});

describe("Topic (property)", () => {
  const write = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.array(fc.integer({ min: 0, max: 6 })));
  const steps = fc.array(fc.array(write, { maxLength: 4 }), { minLength: 1, maxLength: 6 });
  const flatten = (writes: (number | number[])[]) => writes.flatMap((w) => (Array.isArray(w) ? w : [w]));

  it("holds the flattened writes of the last step", () => {
    fc.assert(
      fc.property(steps, (all) => {
        const topic = new Topic<number>();
        for (const step of all) topic.update(step);
        const last = flatten(all[all.length - 1] as (number | number[])[]);
        expect(topic.isAvailable()).toBe(last.length > 0);
        if (last.length > 0) expect(topic.get()).toEqual(last);
      }),
    );
  });

  it("with accumulate, holds the flattened writes of every step in order", () => {
    fc.assert(
      fc.property(steps, (all) => {
        const topic = new Topic<number>({ accumulate: true });
        for (const step of all) topic.update(step);
        const everything = all.flatMap(flatten);
        expect(topic.isAvailable()).toBe(everything.length > 0);
        if (everything.length > 0) expect(topic.get()).toEqual(everything);
      }),
    );
  });

  it("with unique and accumulate, holds each distinct value once, in first-seen order", () => {
    fc.assert(
      fc.property(steps, (all) => {
        const topic = new Topic<number>({ unique: true, accumulate: true });
        for (const step of all) topic.update(step);
        const distinct = [...new Set(all.flatMap(flatten))];
        expect(topic.isAvailable()).toBe(distinct.length > 0);
        if (distinct.length > 0) expect(topic.get()).toEqual(distinct);
      }),
    );
  });
});
