/**
 * DeltaChannel on its own. Expected values: @langchain/langgraph 1.7.3
 * (probe /tmp/peerbench/probe-helperB/delta1.ts).
 */
import { describe, expect, it } from "vitest";
import { EmptyChannelError, InvalidUpdateError, Overwrite } from "../core/index.js";
import { DeltaChannel } from "./index.js";

const concat = (state: number[], writes: number[]): number[] => [...state, ...writes];

describe("DeltaChannel", () => {
  it("reports its LangGraph.js name and default options, and starts empty until restored", () => {
    const channel = new DeltaChannel(concat);
    expect(channel.lc_graph_name).toBe("DeltaChannel");
    expect(channel.snapshotFrequency).toBe(100);
    expect(channel.isAvailable()).toBe(false);
    expect(() => channel.get()).toThrow(EmptyChannelError);
    const restored = channel.fromCheckpoint(undefined);
    expect(restored.isAvailable()).toBe(true);
    expect(restored.get()).toEqual([]);
    expect(restored.update([])).toBe(false);
  });

  it("rejects a snapshotFrequency that is not a positive integer, with LangGraph.js's text", () => {
    expect(() => new DeltaChannel(concat, { snapshotFrequency: 0 })).toThrow(
      "snapshotFrequency must be a positive integer, got 0",
    );
    expect(() => new DeltaChannel(concat, { snapshotFrequency: 1.5 })).toThrow(
      "snapshotFrequency must be a positive integer, got 1.5",
    );
    expect(new DeltaChannel(concat, { snapshotFrequency: 7 }).snapshotFrequency).toBe(7);
  });

  it("folds a step's writes with one reducer call, from the initial value when empty", () => {
    const calls: number[][] = [];
    const channel = new DeltaChannel(
      (state: number[], writes: number[]) => {
        calls.push(writes);
        return concat(state, writes);
      },
      { initialValueFactory: () => [0] },
    );
    expect(channel.update([1, 2])).toBe(true);
    expect(channel.get()).toEqual([0, 1, 2]);
    channel.update([3]);
    expect(channel.get()).toEqual([0, 1, 2, 3]);
    expect(calls).toEqual([[1, 2], [3]]);
  });

  it("lets an Overwrite replace the value and drop the step's other writes; null resets", () => {
    const channel = new DeltaChannel(concat, { initialValueFactory: () => [0] }).fromCheckpoint([9]);
    channel.update([1, new Overwrite([7]), 3]);
    expect(channel.get()).toEqual([7]);
    channel.update([new Overwrite(null)] as never[]);
    expect(channel.get()).toEqual([0]);
    channel.update([{ __overwrite__: [5] }] as never[]);
    expect(channel.get()).toEqual([5]);
  });

  it("refuses two Overwrites in one step, starting with LangGraph.js's text, and keeps its value", () => {
    const channel = new DeltaChannel(concat).fromCheckpoint([1]);
    let error: unknown;
    try {
      channel.update([new Overwrite([5]), new Overwrite([6])]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect((error as Error).message.startsWith("Can receive only one Overwrite value per step.")).toBe(true);
    expect(channel.get()).toEqual([1]);
  });

  it("replays saved writes, the last Overwrite among them becoming the base", () => {
    const channel = new DeltaChannel(concat).fromCheckpoint([9]);
    channel.replayWrites([
      ["t", "x", 1],
      ["t", "x", { __overwrite__: [3] }],
      ["t", "x", 4],
    ]);
    expect(channel.get()).toEqual([3, 4]);
    channel.replayWrites([]);
    expect(channel.get()).toEqual([3, 4]);
  });

  it("checkpoints its whole value and restores from it, or from a DeltaSnapshot", () => {
    const channel = new DeltaChannel(concat).fromCheckpoint([1, 2]);
    expect(channel.checkpoint()).toEqual([1, 2]);
    const copy = channel.fromCheckpoint(channel.checkpoint());
    copy.update([3]);
    expect(copy.get()).toEqual([1, 2, 3]);
    expect(channel.get()).toEqual([1, 2]);
    expect(channel.fromCheckpoint({ lg_name: "DeltaSnapshot", value: [8] }).get()).toEqual([8]);
    expect(new DeltaChannel(concat).checkpoint()).toBeUndefined();
  });

  it("equals a channel with the same reducer and snapshotFrequency", () => {
    const a = new DeltaChannel(concat, { initialValueFactory: () => [0] });
    expect(a.equals(a.fromCheckpoint([4]))).toBe(true);
    expect(a.equals(new DeltaChannel(concat))).toBe(true);
    expect(a.equals(new DeltaChannel(concat, { snapshotFrequency: 5 }))).toBe(false);
    expect(a.equals(new DeltaChannel((s: number[]) => s))).toBe(false);
  });

  it("gives message objects written to it an id, in place, when they have none", () => {
    const message = { content: "hi", id: undefined as string | undefined, getType: () => "human" };
    const kept = { content: "yo", id: "given", getType: () => "ai" };
    const channel = new DeltaChannel((state: unknown[], writes: unknown[]) => [...state, ...writes.flat()]);
    channel.update([[message, kept], "plain"]);
    expect(typeof message.id).toBe("string");
    expect(message.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(kept.id).toBe("given");
    expect(channel.get()).toEqual([message, kept, "plain"]);
  });
});
