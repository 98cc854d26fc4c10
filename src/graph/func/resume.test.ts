import { describe, expect, it } from "vitest";
import { Command, entrypoint, interrupt, MemorySaver, task } from "../../index.js";

describe("resuming task() calls that interrupt", () => {
  it("an answer given by interrupt id wins over the scalar answer an earlier resume saved", async () => {
    const ask = task("ask", async (question: string) => ({ question, answer: interrupt(question) }));
    const viaAsk = task("viaAsk", async (question: string) => ask(`via ${question}`));
    const workflow = entrypoint({ name: "workflow", checkpointer: new MemorySaver() }, async () => [
      await viaAsk("a"),
      await ask("b"),
      await viaAsk("c"),
    ]);
    const config = { configurable: { thread_id: "t" } };
    const pending = async () => (await workflow.getState(config)).tasks.flatMap((t) => t.interrupts);
    await workflow.invoke(1, config);
    // the scalar answer goes to the first question; the next call asks again
    expect(await workflow.invoke(new Command({ resume: "X" }), config)).toEqual({
      __interrupt__: [expect.objectContaining({ value: "b" })],
    });
    // invoke(null) hands the saved scalar answer to "b" (as LangGraph.js does); "via c" asks
    expect(await workflow.invoke(null, config)).toEqual({
      __interrupt__: [expect.objectContaining({ value: "via c" })],
    });
    const [last] = await pending();
    // the nested call takes the answer addressed to its interrupt, not the saved "X"
    expect(await workflow.invoke(new Command({ resume: { [String(last?.id)]: "mapped" } }), config)).toEqual([
      { question: "via a", answer: "X" },
      { question: "b", answer: "X" },
      { question: "via c", answer: "mapped" },
    ]);
  });

  it("calls made together in an entrypoint run inside another all take the scalar answer", async () => {
    const ask = task("ask", async (question: string) => interrupt(question));
    const inner = entrypoint("inner", async () => Promise.all([ask("a"), ask("b")]));
    const outer = entrypoint({ name: "outer", checkpointer: new MemorySaver() }, async (x: number, config) =>
      inner.invoke(x, config),
    );
    const config = { configurable: { thread_id: "t" } };
    await outer.invoke(1, config);
    // as in LangGraph.js (and as when the calls are the outer entrypoint's own)
    expect(await outer.invoke(new Command({ resume: "yes" }), config)).toEqual(["yes", "yes"]);
  });

  it("a call that made calls of its own and finished while another call interrupted is not run again", async () => {
    const ran: string[] = [];
    const lookup = task("lookup", async (key: string) => {
      ran.push(`lookup ${key}`);
      return key.toUpperCase();
    });
    const fetchIt = task("fetchIt", async (key: string) => {
      ran.push(`fetchIt ${key}`);
      return `fetched ${await lookup(key)}`;
    });
    const ask = task("ask", async (question: string) => interrupt(question));
    const workflow = entrypoint({ name: "workflow", checkpointer: new MemorySaver() }, async () =>
      Promise.all([fetchIt("a"), ask("ok?")]),
    );
    const config = { configurable: { thread_id: "t" } };
    await workflow.invoke(1, config);
    expect(await workflow.invoke(new Command({ resume: "yes" }), config)).toEqual(["fetched A", "yes"]);
    // as in LangGraph.js: its saved result is used on resume
    expect(ran).toEqual(["fetchIt a", "lookup a"]);
  });
});
