import { describe, expect, it } from "vitest";
import { entrypoint, MemorySaver, task } from "../../index.js";

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
  it("fails its caller even when the caller catches it: nothing of the caller is saved", async () => {
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
    expect(state.tasks[0]?.error).toEqual({ message: "boom", name: "Error" });
    // the run can be retried: the entrypoint runs again, and so does the failed call
    expect(await workflow.invoke(null, config)).toBe("fine");
  });
});
