import { describe, expect, it } from "vitest";
import {
  Command,
  entrypoint,
  getPreviousState,
  InMemoryCache,
  interrupt,
  isNodeTimeoutError,
  MemorySaver,
  task,
} from "../../index.js";

describe("task options", () => {
  it("cachePolicy: a call with the same arguments takes the cached result", async () => {
    let runs = 0;
    const double = task({ name: "double", cachePolicy: { ttl: 60 } }, (x: number) => {
      runs += 1;
      return 2 * x;
    });
    const workflow = entrypoint(
      { name: "workflow", checkpointer: new MemorySaver(), cache: new InMemoryCache() },
      async (xs: number[]) => {
        const out: [number, unknown][] = [];
        for (const x of xs) out.push([await double(x), interrupt("next?")]);
        return out;
      },
    );
    const config = { configurable: { thread_id: "t" } };
    await workflow.invoke([1, 1, 2], config);
    await workflow.invoke(new Command({ resume: "a" }), config);
    await workflow.invoke(new Command({ resume: "b" }), config);
    const result = await workflow.invoke(new Command({ resume: "c" }), config);
    expect(result).toEqual([
      [2, "a"],
      [2, "b"],
      [4, "c"],
    ]);
    expect(runs).toBe(2);
    // another thread reads the same cache
    const other = { configurable: { thread_id: "u" } };
    await workflow.invoke([2], other);
    expect(await workflow.invoke(new Command({ resume: "d" }), other)).toEqual([[4, "d"]]);
    expect(runs).toBe(2);
    await workflow.clearCache();
    await workflow.invoke([2], { configurable: { thread_id: "v" } });
    expect(runs).toBe(3);
  });

  it("cache: true is accepted as LangGraph.js's other spelling", async () => {
    let runs = 0;
    const echo = task({ name: "echo", cache: true }, (x: string) => {
      runs += 1;
      return x;
    });
    const workflow = entrypoint({ name: "workflow", cache: new InMemoryCache() }, async (x: string) => [
      await echo(x),
      await echo(x),
    ]);
    // as in LangGraph.js, a call is cached once committed, after its caller made the next call
    expect(await workflow.invoke("a")).toEqual(["a", "a"]);
    expect(runs).toBe(2);
    expect(await workflow.invoke("a")).toEqual(["a", "a"]);
    expect(runs).toBe(2);
  });

  it("with a cache, calls start in the order they were made and a later call finds an earlier result", async () => {
    const ran: string[] = [];
    const cached = task({ name: "cached", cachePolicy: {} }, async (x: string) => {
      ran.push(`cached(${x})`);
      return x;
    });
    const plain = task("plain", async (x: string) => {
      ran.push(`plain(${x})`);
      return x;
    });
    const workflow = entrypoint({ name: "workflow", cache: new InMemoryCache() }, async () => {
      const first = await Promise.all([cached("x"), plain("a"), cached("y")]);
      return [first, await cached("x")];
    });
    expect(await workflow.invoke(1)).toEqual([["x", "a", "y"], "x"]);
    // as in LangGraph.js: the plain call does not overtake the cached one made before it, and
    // the second cached("x") takes the first one's result
    expect(ran).toEqual(["cached(x)", "plain(a)", "cached(y)"]);
  });

  it("generators are refused with LangGraph.js's message", () => {
    expect(() => task("gen", function* () {} as never)).toThrow(
      "Generators are disallowed as tasks. For streaming responses, use config.write.",
    );
    expect(() => entrypoint("gen", async function* () {} as never)).toThrow(
      "Generators are disallowed as entrypoints. For streaming responses, use config.write.",
    );
  });
});

describe("an entrypoint's values stream", () => {
  it("starts a resumed run with null, the value of its still empty output", async () => {
    const workflow = entrypoint({ name: "workflow", checkpointer: new MemorySaver() }, async (x: number) => {
      const answer = interrupt("go on?");
      return `${x}-${String(answer)}`;
    });
    const config = { configurable: { thread_id: "t" } };
    await workflow.invoke(3, config);
    const chunks: unknown[] = [];
    for await (const chunk of await workflow.stream(new Command({ resume: "ok" }), {
      ...config,
      streamMode: "values",
    })) {
      chunks.push(chunk);
    }
    expect(chunks).toEqual([null, "3-ok"]);
  });
});

describe("an entrypoint's invoke", () => {
  it("returns null, its values stream's last chunk, when a resume finds nothing to run", async () => {
    const workflow = entrypoint(
      { name: "workflow", checkpointer: new MemorySaver() },
      async (x: number) => x,
    );
    expect(
      await workflow.invoke(new Command({ resume: "ok" }), { configurable: { thread_id: "new" } }),
    ).toBeNull();
  });
});

describe("entrypoint.final", () => {
  it("is a plain object marked with __lg_type, as LangGraph.js's, which an entrypoint unwraps", async () => {
    expect(entrypoint.final({ value: 1, save: 2 })).toEqual({
      value: 1,
      save: 2,
      __lg_type: "__pregel_final",
    });
    const seen: unknown[] = [];
    const workflow = entrypoint({ name: "workflow", checkpointer: new MemorySaver() }, async (x: number) => {
      seen.push(getPreviousState());
      return { value: `v${x}`, save: x * 10, __lg_type: "__pregel_final" as const };
    });
    const config = { configurable: { thread_id: "final" } };
    expect(await workflow.invoke(1, config)).toBe("v1");
    expect(await workflow.invoke(2, config)).toBe("v2");
    expect(seen).toEqual([undefined, 10]);
  });
});

describe("an entrypoint's timeout", () => {
  it("fails an attempt that runs past it with a NodeTimeoutError naming the entrypoint", async () => {
    const slow = entrypoint({ name: "ept", timeout: 30 }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return 1;
    });
    const error = await slow.invoke({}).catch((e: unknown) => e);
    expect(isNodeTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Node "ept" exceeded its run timeout of 30ms \(elapsed: \d+ms\)\.$/,
    );
    const fast = entrypoint({ name: "fast", timeout: { idleTimeout: 500 } }, async (x: number) => x + 1);
    expect(await fast.invoke(1)).toBe(2);
  });
});
