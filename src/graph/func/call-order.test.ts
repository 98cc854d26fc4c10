import { describe, expect, it } from "vitest";
import { entrypoint, getWriter, task } from "../../index.js";

/** `tasks` chunks as `name:start` / `name:result`, custom chunks as they are. */
async function events(stream: Promise<AsyncIterable<unknown>>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of await stream) {
    const [mode, payload] = chunk as [string, Record<string, unknown>];
    if (mode === "tasks") out.push(`${String(payload.name)}:${"result" in payload ? "result" : "start"}`);
    else out.push(String(payload));
  }
  return out;
}

describe("the order of a functional run's task events (as in LangGraph.js)", () => {
  const step = task("step", (x: number) => {
    getWriter()?.(`ran ${x}`);
    return x + 1;
  });

  it("a call is committed after its caller made the next call", async () => {
    const workflow = entrypoint("workflow", async (x: number) => {
      let value = x;
      for (let n = 0; n < 3; n++) value = await step(value);
      return value;
    });
    expect(await events(workflow.stream(0, { streamMode: ["tasks", "custom"] }))).toEqual([
      "workflow:start",
      "step:start",
      "ran 0",
      "step:start",
      "step:result",
      "ran 1",
      "step:start",
      "step:result",
      "ran 2",
      "step:result",
      "workflow:result",
    ]);
  });

  it("calls made together all start before any of them runs", async () => {
    const workflow = entrypoint("workflow", async () => Promise.all([step(10), step(20), step(30)]));
    expect(await events(workflow.stream(0, { streamMode: ["tasks", "custom"] }))).toEqual([
      "workflow:start",
      "step:start",
      "step:start",
      "step:start",
      "ran 10",
      "ran 20",
      "ran 30",
      "step:result",
      "step:result",
      "step:result",
      "workflow:result",
    ]);
  });

  it("a call made as soon as Promise.all of calls resolves starts before the last one's result", async () => {
    const square = task("square", async (x: number) => {
      await new Promise((resolve) => setTimeout(resolve, 15 * x));
      return x * x;
    });
    const total = task("total", (xs: number[]) => xs.reduce((a, b) => a + b, 0));
    const workflow = entrypoint("workflow", async () => total(await Promise.all([square(2), square(1)])));
    expect(await events(workflow.stream(0, { streamMode: ["tasks"] }))).toEqual([
      "workflow:start",
      "square:start",
      "square:start",
      "square:result",
      "total:start",
      "square:result",
      "total:result",
      "workflow:result",
    ]);
  });
});

describe("a call its caller does not await (as in LangGraph.js)", () => {
  const later = <T>(value: () => T) =>
    new Promise<T>((resolve, reject) =>
      setTimeout(() => {
        try {
          resolve(value());
        } catch (error) {
          reject(error);
        }
      }, 20),
    );

  it("is waited for: the run ends after it, with its update streamed", async () => {
    const log: string[] = [];
    const slow = task("slow", () =>
      later(() => {
        log.push("slow done");
        return 1;
      }),
    );
    const workflow = entrypoint("workflow", async () => {
      void slow();
      return "returned";
    });
    const chunks: unknown[] = [];
    for await (const chunk of await workflow.stream(0, { streamMode: "updates" })) chunks.push(chunk);
    log.push("run ended");
    expect(chunks).toEqual([{ workflow: "returned" }, { slow: 1 }]);
    expect(log).toEqual(["slow done", "run ended"]);
  });

  it("fails the run when it fails, even if its promise was caught", async () => {
    const slowBad = task("slowBad", () =>
      later(() => {
        throw new Error("late");
      }),
    );
    const workflow = entrypoint("workflow", async () => {
      slowBad().catch(() => undefined);
      return "returned";
    });
    await expect(workflow.invoke(0)).rejects.toThrow("late");
  });
});
