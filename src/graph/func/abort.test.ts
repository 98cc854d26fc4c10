import { describe, expect, it } from "vitest";
import { entrypoint, interrupt, MemorySaver, task } from "../../index.js";

describe("an aborted functional run", () => {
  it.each([false, true])(
    "starts no new task once its signal aborted (checkpointer: %s)",
    async (withSaver) => {
      let started = 0;
      const slowEcho = task("slowEcho", async (value: string) => {
        started += 1;
        await new Promise((resolve) => setTimeout(resolve, 40));
        return value;
      });
      const workflow = entrypoint(
        { name: "workflow", checkpointer: withSaver ? new MemorySaver() : undefined },
        async (items: string[]) => {
          const first = await Promise.all(items.map((item) => slowEcho(item)));
          // the run was aborted while the first round ran: these calls must not start
          return Promise.all(first.map((item) => slowEcho(`${item}!`)));
        },
      );
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 10);
      await expect(
        workflow.invoke(["a", "b"], { configurable: { thread_id: "t" }, signal: controller.signal }),
      ).rejects.toThrow(/abort/i);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(started).toBe(2);
    },
  );
});

describe("a task call that failed", () => {
  it("fails its caller even when the caller catches it: the caller is saved as aborted", async () => {
    let runs = 0;
    const flaky = task("flaky", async () => {
      runs += 1;
      if (runs === 1) throw new Error("boom");
      return "fine";
    });
    const workflow = entrypoint({ name: "workflow", checkpointer: new MemorySaver() }, async () => {
      try {
        return await flaky();
      } catch (error) {
        return `caught ${(error as Error).message}`;
      }
    });
    const config = { configurable: { thread_id: "t" } };
    await expect(workflow.invoke(1, config)).rejects.toThrow("boom");
    const state = await workflow.getState(config);
    expect(state.values).toBeNull();
    expect(state.next).toEqual(["workflow"]);
    expect(state.tasks[0]?.result).toBeUndefined();
    // as in LangGraph.js, the failure aborted the step, the caller with it
    expect(state.tasks[0]?.error).toEqual({ message: "This operation was aborted", name: "AbortError" });
    // the run can be retried: the entrypoint runs again, and so does the failed call
    expect(await workflow.invoke(null, config)).toBe("fine");
  });
});

describe("the stream of a run whose task call failed", () => {
  it.each([
    ["tasks", false],
    ["tasks", true],
    // LangGraph.js makes this chunk too, but drops it as its stream fails (see differences.md)
    ["debug", false],
  ] as const)(
    "reports the caller aborted after the call's error (%s, caller catches: %s)",
    async (mode, catches) => {
      const broken = task("broken", async () => {
        throw new Error("boom");
      });
      const workflow = entrypoint({ name: "workflow", checkpointer: new MemorySaver() }, async () => {
        if (!catches) return broken();
        return broken().catch(() => "caught");
      });
      const results: unknown[] = [];
      const failure = await workflow
        .stream(1, { configurable: { thread_id: "t" }, streamMode: mode })
        .then(async (stream) => {
          for await (const chunk of stream) {
            const event = chunk as { type?: string; payload?: object };
            const payload = mode === "debug" ? event.payload : chunk;
            if (mode === "debug" && event.type !== "task_result") continue;
            const { name, result, error, interrupts } = payload as Record<string, unknown>;
            if (result !== undefined) results.push({ name, result, error, interrupts });
          }
        })
        .catch((error: unknown) => error);
      expect((failure as Error).message).toBe("boom");
      // LangGraph.js aborts the entrypoint's run as the call fails, and streams it
      expect(results).toEqual([
        { name: "broken", result: {}, error: { message: "boom", name: "Error" }, interrupts: [] },
        {
          name: "workflow",
          result: {},
          error: { message: "This operation was aborted", name: "AbortError" },
          interrupts: [],
        },
      ]);
    },
  );
});

describe("a task call that failed while other calls ran", () => {
  it("aborts them and their callers: the run fails with both errors, as in LangGraph.js", async () => {
    const inner = task("inner", async () => {
      throw new RangeError("inner failed");
    });
    const outer = task("outer", async () => inner());
    const slow = task("slow", async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return "late";
    });
    const workflow = entrypoint({ name: "workflow", checkpointer: new MemorySaver() }, async () =>
      Promise.all([outer(), slow()]),
    );
    const config = { configurable: { thread_id: "t" } };
    const results: unknown[] = [];
    let failure: unknown;
    try {
      for await (const chunk of await workflow.stream(1, { ...config, streamMode: "tasks" })) {
        if ("result" in (chunk as object)) results.push(chunk);
      }
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(AggregateError);
    const errors = (failure as AggregateError).errors as Error[];
    expect(errors.map((error) => [error.name, error.message])).toEqual([
      ["RangeError", "inner failed"],
      ["AbortError", "This operation was aborted"],
    ]);
    const aborted = { message: "This operation was aborted", name: "AbortError" };
    expect(results[0]).toEqual(
      expect.objectContaining({ name: "inner", error: { message: "inner failed", name: "RangeError" } }),
    );
    // every result made before the failure (LangGraph.js drops those its consumer has not read)
    expect(results.slice(1)).toHaveLength(3);
    expect(results.slice(1)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "outer", error: aborted }),
        expect.objectContaining({ name: "slow", error: aborted }),
        expect.objectContaining({ name: "workflow", error: aborted }),
      ]),
    );
    expect((await workflow.getState(config)).tasks[0]?.error).toEqual(aborted);
  });

  it("fails the run with its own error when the other calls had finished", async () => {
    const ok = task("ok", () => 1);
    const bad = task("bad", () => {
      throw new RangeError("bad");
    });
    const workflow = entrypoint("workflow", async () => Promise.all([ok(), bad(), ok()]));
    await expect(workflow.invoke(1)).rejects.toThrow(RangeError);
  });
});

describe("a task call retrying when another call fails", () => {
  it("runs its function once more, then stops: the attempt fails with an AbortError", async () => {
    let attempts = 0;
    const flaky = task(
      { name: "flaky", retry: { maxAttempts: 5, initialInterval: 20, jitter: false, logWarning: false } },
      async () => {
        attempts += 1;
        throw new Error("flaky");
      },
    );
    const broken = task("broken", async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error("broken");
    });
    const workflow = entrypoint("workflow", async () => Promise.all([flaky(), broken()]));
    const failure = await workflow.invoke(1).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    // as in LangGraph.js: the call waiting to retry when "broken" failed waits out its delay and
    // runs again (the run ends after it), but that attempt counts as aborted, which the default
    // retryOn does not retry
    expect(attempts).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(attempts).toBe(2);
  });
});

describe("a task call that failed while another call interrupted", () => {
  /** An entrypoint calling, together, a task that interrupts and one that fails (after `delayMs`). */
  const askAndBreak = (delayMs: number) => {
    const ask = task("ask", async () => interrupt("go on?"));
    const broken = task("broken", async () => {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      throw new Error("broken");
    });
    return entrypoint({ name: "workflow", checkpointer: new MemorySaver() }, async () =>
      Promise.all([ask(), broken()]),
    );
  };

  it("fails the run: the error outranks the interrupt, and the caller is saved as aborted", async () => {
    const workflow = askAndBreak(0);
    const config = { configurable: { thread_id: "t" } };
    await expect(workflow.invoke(1, config)).rejects.toThrow("broken");
    const state = await workflow.getState(config);
    expect(state.next).toEqual(["workflow"]);
    expect(state.tasks.map((t) => [t.name, t.error, t.interrupts])).toEqual([
      ["workflow", { message: "This operation was aborted", name: "AbortError" }, []],
    ]);
  });

  it("fails the run when the error comes after the interrupt (the entrypoint keeps its interrupt)", async () => {
    const workflow = askAndBreak(10);
    const config = { configurable: { thread_id: "t" } };
    await expect(workflow.invoke(1, config)).rejects.toThrow("broken");
    const state = await workflow.getState(config);
    expect(state.tasks.map((t) => [t.name, t.error, t.interrupts.map((i) => i.value)])).toEqual([
      ["workflow", undefined, ["go on?"]],
    ]);
  });
});

describe("a retrying task call whose own call fails", () => {
  it("is not retried: the failure aborted it", async () => {
    const ran: string[] = [];
    const broken = task("broken", async () => {
      ran.push("broken");
      throw new Error("broken");
    });
    const outer = task(
      { name: "outer", retry: { maxAttempts: 3, initialInterval: 1, jitter: false, logWarning: false } },
      async () => {
        ran.push("outer");
        return broken();
      },
    );
    const workflow = entrypoint({ name: "workflow", checkpointer: new MemorySaver() }, async () => outer());
    await expect(workflow.invoke(1, { configurable: { thread_id: "t" } })).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 30));
    // as in LangGraph.js, where the caller's attempt is aborted with the step
    expect(ran).toEqual(["outer", "broken"]);
  });
});
