import { describe, expect, it } from "vitest";
import { Annotation, interrupt, MemorySaver, START, StateGraph } from "../../index.js";

const State = Annotation.Root({ n: Annotation<number> });

describe("a failing task and the siblings it aborts", () => {
  it("rethrows the failure alone when a sibling fails only because it was aborted", async () => {
    let siblingSawAbort = false;
    const graph = new StateGraph(State)
      .addNode("slow", (_state, config) => {
        return new Promise<Record<string, never>>((_resolve, reject) => {
          config.signal?.addEventListener(
            "abort",
            () => {
              siblingSawAbort = true;
              reject(new Error("stopped by the abort"));
            },
            { once: true },
          );
        });
      })
      .addNode("broken", async () => {
        await new Promise((r) => setTimeout(r, 5));
        throw new Error("broken node");
      })
      .addEdge(START, "slow")
      .addEdge(START, "broken")
      .compile();
    const failure = await graph.invoke({ n: 1 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(AggregateError);
    expect((failure as Error).message).toBe("broken node");
    expect(siblingSawAbort).toBe(true);
  });
});

describe("the order tasks of one step settle in", () => {
  it("streams an interrupt raised at once before the update of a sibling that returned after it", async () => {
    const Log = Annotation.Root({
      v: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const graph = new StateGraph(Log)
      .addNode("ask", async () => ({ v: [String(interrupt("question"))] }))
      .addNode("reply", async () => ({ v: ["answer"] }))
      .addEdge(START, "ask")
      .addEdge(START, "reply")
      .compile({ checkpointer: new MemorySaver() });
    const chunks: string[] = [];
    for await (const chunk of await graph.stream({ v: [] }, { configurable: { thread_id: "t" } })) {
      chunks.push(...Object.keys(chunk));
    }
    expect(chunks).toEqual(["__interrupt__", "reply"]);
  });
});
