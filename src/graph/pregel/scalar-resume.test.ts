/**
 * A scalar `Command({ resume })` in the functional API: which `task()` calls it answers.
 * Expected values: @langchain/langgraph 1.7.3 (probes /tmp/probes-b/p20.ts, p21.ts).
 */
import { describe, expect, it } from "vitest";
import { Command, entrypoint, interrupt, MemorySaver, task } from "../../index.js";
import { thread } from "./persistence.test-helpers.js";

const ask = task("ask", async (q: string) => `${q}=${interrupt({ q })}`);

describe("a scalar resume and task() calls that interrupt", () => {
  it("answers every call made together (Promise.all)", async () => {
    const wf = entrypoint({ name: "wf", checkpointer: new MemorySaver() }, async (qs: string[]) =>
      Promise.all(qs.map((q) => ask(q))),
    );
    // the entrypoint stops at the first call's interrupt
    const paused = await wf.invoke(["p", "q"], thread("t"));
    expect(paused).toEqual({ __interrupt__: [{ id: expect.any(String), value: { q: "p" } }] });
    expect(await wf.invoke(new Command({ resume: "S" }), thread("t"))).toEqual(["p=S", "q=S"]);
  });

  it("answers only the first of calls made one after the other", async () => {
    const wf = entrypoint({ name: "wf", checkpointer: new MemorySaver() }, async (qs: string[]) => {
      const out: string[] = [];
      for (const q of qs) out.push(await ask(q));
      return out;
    });
    await wf.invoke(["p", "q"], thread("t"));
    const second = await wf.invoke(new Command({ resume: "S" }), thread("t"));
    expect(second).toEqual({ __interrupt__: [{ id: expect.any(String), value: { q: "q" } }] });
    expect(await wf.invoke(new Command({ resume: "T" }), thread("t"))).toEqual(["p=S", "q=T"]);
  });

  it("is not reused by the calls once the entrypoint's own interrupt took it", async () => {
    const wf = entrypoint({ name: "wf", checkpointer: new MemorySaver() }, async (qs: string[]) => {
      const top = interrupt("top");
      return [top, ...(await Promise.all(qs.map((q) => ask(q))))];
    });
    await wf.invoke(["p", "q"], thread("t"));
    const second = await wf.invoke(new Command({ resume: "S" }), thread("t"));
    expect(second).toEqual({ __interrupt__: [{ id: expect.any(String), value: { q: "p" } }] });
    expect(await wf.invoke(new Command({ resume: "T" }), thread("t"))).toEqual(["S", "p=T", "q=T"]);
  });
});
