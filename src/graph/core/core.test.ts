import { describe, expect, it, vi } from "vitest";
import { AgentGraphError } from "../../shared/index.js";
import {
  compareVersions,
  deterministicId,
  EmptyChannelError,
  EmptyInputError,
  GraphBubbleUp,
  GraphDrained,
  GraphInterrupt,
  GraphRecursionError,
  GraphValueError,
  getSubgraphsSeenSet,
  InvalidGraphError,
  InvalidUpdateError,
  isGraphBubbleUp,
  isGraphInterrupt,
  isParentCommand,
  NodeInterrupt,
  nextIntegerVersion,
  ParentCommand,
  StateGraphInputError,
  timeOrderedId,
  UnreachableNodeError,
  uniqueId,
} from "./index.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("errors", () => {
  it("carry LangGraph.js names and lc_error_code values", () => {
    const recursion = new GraphRecursionError("x");
    expect(recursion.name).toBe("GraphRecursionError");
    // as LangGraph.js: lc_error_code holds the code given where the error is made, else undefined
    expect(recursion.lc_error_code).toBeUndefined();
    expect(recursion.code).toBe("GRAPH_RECURSION_LIMIT");
    const concurrent = new InvalidUpdateError("x", { lc_error_code: "INVALID_CONCURRENT_GRAPH_UPDATE" });
    expect(concurrent.lc_error_code).toBe("INVALID_CONCURRENT_GRAPH_UPDATE");
    expect(concurrent.code).toBe("INVALID_CONCURRENT_GRAPH_UPDATE");
    expect(new UnreachableNodeError("x").lc_error_code).toBeUndefined();
    expect(new UnreachableNodeError("x").code).toBe("UNREACHABLE_NODE");
    expect(new EmptyChannelError()).toBeInstanceOf(Error);
    // LangGraph.js's empty channel error carries no message of its own
    expect(String(new EmptyChannelError())).toBe("EmptyChannelError");
  });

  it("follow the class hierarchy with instanceof", () => {
    const unreachable = new UnreachableNodeError("x");
    expect(unreachable).toBeInstanceOf(InvalidGraphError);
    expect(unreachable).toBeInstanceOf(GraphValueError);
    expect(unreachable).toBeInstanceOf(Error);
    expect(unreachable).not.toBeInstanceOf(InvalidUpdateError);
    const nodeInterrupt = new NodeInterrupt("why");
    expect(nodeInterrupt).toBeInstanceOf(GraphInterrupt);
    expect(nodeInterrupt).toBeInstanceOf(GraphBubbleUp);
    expect(nodeInterrupt.interrupts).toEqual([{ value: "why" }]);
  });

  it("give a GraphInterrupt made without interrupts an empty message, as LangGraph.js does", () => {
    expect(new GraphInterrupt().message).toBe("");
    expect(new GraphInterrupt().interrupts).toEqual([]);
    expect(new GraphInterrupt([]).message).toBe("[]");
  });

  it("take an optional message, as LangGraph.js's do (StateGraphInputError's default is its text)", () => {
    const made = [
      new AgentGraphError(),
      new GraphRecursionError(),
      new InvalidUpdateError(),
      new EmptyInputError(),
      new GraphValueError(),
      new InvalidGraphError(),
      new UnreachableNodeError(),
      new GraphBubbleUp(),
    ];
    expect(made.map((error) => error.message)).toEqual(["", "", "", "", "", "", "", ""]);
    expect(new StateGraphInputError().message).toBe(
      "Invalid StateGraph input. Make sure to pass a valid StateDefinition, Annotation.Root, or Zod schema.",
    );
  });

  it("give a ParentCommand an empty message, as LangGraph.js does", () => {
    expect(new ParentCommand({}).message).toBe("");
    expect(new ParentCommand({}).name).toBe("ParentCommand");
  });

  it("name themselves as LangGraph.js's do: its base classes and a user's subclass of them keep Error's name", () => {
    class MyError extends AgentGraphError {}
    class MyBubble extends GraphBubbleUp {}
    class MyRecursion extends GraphRecursionError {}
    const shape = (e: Error) => ({ name: e.name, own: Object.hasOwn(e, "name"), keys: Object.keys(e) });
    // AgentGraphError is exported as BaseLangGraphError
    for (const e of [new AgentGraphError("m"), new MyError("m"), new GraphBubbleUp("m"), new MyBubble("m")]) {
      expect(shape(e)).toEqual({ name: "Error", own: false, keys: ["lc_error_code"] });
      expect(String(e)).toBe("Error: m");
      expect(e.lc_error_code).toBeUndefined();
    }
    expect(new MyError("m", { lc_error_code: "INVALID_CONCURRENT_GRAPH_UPDATE" }).lc_error_code).toBe(
      "INVALID_CONCURRENT_GRAPH_UPDATE",
    );
    expect(new MyBubble("m")).toBeInstanceOf(GraphBubbleUp);
    expect(shape(new MyRecursion("m"))).toEqual({
      name: "GraphRecursionError",
      own: true,
      keys: ["lc_error_code", "name"],
    });
    expect(shape(new GraphInterrupt([]))).toEqual({
      name: "GraphInterrupt",
      own: true,
      keys: ["lc_error_code", "interrupts", "name"],
    });
    expect(shape(new GraphDrained("r")).keys).toEqual(["lc_error_code", "reason", "name"]);
  });

  it("are recognised by brand, not only by class identity", () => {
    expect(isGraphInterrupt(new GraphInterrupt([]))).toBe(true);
    expect(isGraphBubbleUp(new ParentCommand({}))).toBe(true);
    expect(isParentCommand(new ParentCommand({}))).toBe(true);
    expect(isParentCommand(new GraphInterrupt([]))).toBe(false);
    expect(isGraphBubbleUp(new Error("x"))).toBe(false);
    // An error with the same brand from another copy of the library.
    const foreign = Object.create(Error.prototype) as Error;
    Object.defineProperty(foreign, Symbol.for("agentgraph.error.brand"), {
      value: ["GraphInterrupt", "GraphBubbleUp", "AgentGraphError"],
    });
    expect(foreign).toBeInstanceOf(GraphInterrupt);
    expect(isGraphInterrupt(foreign)).toBe(true);
  });
});

describe("getSubgraphsSeenSet", () => {
  it("is one set per process, on globalThis under LangGraph.js's registered key", () => {
    const seen = getSubgraphsSeenSet();
    expect(seen).toBeInstanceOf(Set);
    expect(getSubgraphsSeenSet()).toBe(seen);
    expect((globalThis as unknown as Record<symbol, unknown>)[Symbol.for("LG_CHECKPOINT_SEEN_NS_SET")]).toBe(
      seen,
    );
    seen.add("ns");
    seen.clear();
    expect(getSubgraphsSeenSet().size).toBe(0);
  });
});

describe("ids", () => {
  it("deterministicId is a UUID-shaped hash: same text, same id", () => {
    const id = deterministicId("step 1 / node a");
    expect(id).toMatch(UUID);
    expect(deterministicId("step 1 / node a")).toBe(id);
    expect(deterministicId("step 1 / node b")).not.toBe(id);
  });

  it("timeOrderedId is strictly increasing within a process", () => {
    const ids = Array.from({ length: 200 }, () => timeOrderedId());
    expect(
      ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
    ).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("timeOrderedId counts 100-ns ticks within a millisecond, across digit carries and a clock set back", () => {
    const stamp = (id: string) => BigInt(`0x${id.slice(0, 8)}${id.slice(9, 13)}${id.slice(15, 18)}`);
    const clock = vi.spyOn(Date, "now");
    try {
      // one millisecond for 5,000 ids (past the fast path's 4,096), then the clock set back
      clock.mockReturnValue(1_800_000_000_000);
      const first = Array.from({ length: 5000 }, () => timeOrderedId());
      clock.mockReturnValue(1_799_999_999_000);
      const after = Array.from({ length: 3 }, () => timeOrderedId());
      clock.mockReturnValue(1_800_000_001_000);
      const later = timeOrderedId();
      const ids = [...first, ...after];
      const base = stamp(ids[0] as string);
      expect(base).toBeGreaterThanOrEqual(1_800_000_000_000n * 10000n + 122192928000000000n);
      ids.forEach((id, i) => {
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(stamp(id)).toBe(base + BigInt(i));
      });
      // a later millisecond starts from its own time again
      expect(stamp(later)).toBe(1_800_000_001_000n * 10000n + 122192928000000000n);
    } finally {
      clock.mockRestore();
    }
  });

  it("uniqueId never repeats", () => {
    const ids = Array.from({ length: 1000 }, () => uniqueId());
    expect(new Set(ids).size).toBe(1000);
    expect(ids[0]).toMatch(UUID);
  });
});

describe("channel versions", () => {
  it("numbers count up; string versions keep their numeric prefix", () => {
    expect(nextIntegerVersion(undefined)).toBe(1);
    expect(nextIntegerVersion(4)).toBe(5);
    expect(nextIntegerVersion("00000007.123")).toBe(8);
  });

  it("compare numerically, strings lexicographically, numbers before strings", () => {
    expect(compareVersions(2, 10)).toBeLessThan(0);
    expect(compareVersions("b", "a")).toBeGreaterThan(0);
    expect(compareVersions("a", "a")).toBe(0);
    expect(compareVersions(99, "0")).toBeLessThan(0);
  });
});

describe("lc_error_code is an own enumerable key of graph errors, as in LangGraph.js", () => {
  it("Object.keys, JSON and spreads show it (and not code), undefined on errors made without one", () => {
    const errors: [Error, string[]][] = [
      [new GraphInterrupt([]), ["lc_error_code", "interrupts", "name"]],
      [new NodeInterrupt("stop"), ["lc_error_code", "interrupts", "name"]],
      [new ParentCommand({}), ["lc_error_code", "command", "name"]],
      [new GraphRecursionError("too deep"), ["lc_error_code", "name"]],
      [new InvalidUpdateError("bad update"), ["lc_error_code", "name"]],
      [new EmptyInputError("none"), ["lc_error_code", "name"]],
      [new GraphValueError("bad"), ["lc_error_code", "name"]],
      [new EmptyChannelError("empty"), ["lc_error_code", "name"]],
    ];
    for (const [error, keys] of errors) {
      expect(Object.keys(error), error.name).toEqual(keys);
      expect(Object.hasOwn(error, "lc_error_code")).toBe(true);
      expect((error as Error & { lc_error_code?: string }).lc_error_code, error.name).toBeUndefined();
      expect({ ...error }).toHaveProperty("lc_error_code", undefined);
    }
    const given = new GraphValueError("No checkpointer set", { lc_error_code: "MISSING_CHECKPOINTER" });
    expect(JSON.parse(JSON.stringify(given))).toEqual({
      lc_error_code: "MISSING_CHECKPOINTER",
      name: "GraphValueError",
    });
    expect(given.code).toBe("MISSING_CHECKPOINTER");
  });
});
