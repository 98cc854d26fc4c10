import { describe, expect, it } from "vitest";
import { Annotation, START, StateGraph } from "../../index.js";
import type { CallbackHandler } from "../../shared/index.js";

const Counter = Annotation.Root({
  x: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

/** Records what chain callbacks hear: `[event, name, inputs or outputs, tags]`. */
function recorder() {
  const heard: [string, string | undefined, unknown, string[] | undefined][] = [];
  const names = new Map<string, string | undefined>();
  const handler: CallbackHandler = {
    handleChainStart(_chain, inputs, runId, _parent, tags, _metadata, _type, name) {
      names.set(runId, name);
      heard.push(["start", name, inputs, tags]);
    },
    handleChainEnd(outputs, runId, _parent, tags) {
      heard.push(["end", names.get(runId), outputs, tags]);
    },
    handleChainError(_error, runId, _parent, tags) {
      heard.push(["error", names.get(runId), undefined, tags]);
    },
  };
  return { heard, handler };
}

function twoSteps() {
  return new StateGraph(Counter)
    .addNode("a", () => ({ x: 1 }))
    .addNode("b", () => ({ x: 10 }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile();
}

describe("the graph's withConfig defaults name and tag its run (LangGraph.js)", () => {
  it("a withConfig runName names the graph's run for chain callbacks and streamEvents", async () => {
    const graph = twoSteps().withConfig({ runName: "Renamed" });
    const { heard, handler } = recorder();
    await graph.invoke({ x: 0 }, { callbacks: [handler] });
    expect(heard.map(([event, name]) => `${event} ${name}`)).toEqual([
      "start Renamed",
      "start a",
      "end a",
      "start b",
      "end b",
      "end Renamed",
    ]);
    const names: string[] = [];
    for await (const event of graph.streamEvents({ x: 0 }, { version: "v2" })) {
      if (event.event !== "on_chain_stream") names.push(`${event.event} ${event.name}`);
    }
    expect(names[0]).toBe("on_chain_start Renamed");
    expect(names.at(-1)).toBe("on_chain_end Renamed");
    // the call's own runName still wins
    const own: string[] = [];
    for await (const event of graph.streamEvents({ x: 0 }, { version: "v2", runName: "Call" })) {
      own.push(event.name);
    }
    expect(own[0]).toBe("Call");
  });

  it("withConfig tags come before the call's in streamEvents, for the graph and its nodes", async () => {
    const graph = twoSteps().withConfig({ tags: ["default"] });
    const tags: [string, string[]][] = [];
    for await (const event of graph.streamEvents({ x: 0 }, { version: "v2", tags: ["call"] })) {
      if (event.event === "on_chain_start") tags.push([event.name, event.tags]);
    }
    expect(tags).toEqual([
      ["LangGraph", ["default", "call"]],
      ["a", ["graph:step:1", "default", "call"]],
      ["b", ["graph:step:2", "default", "call"]],
    ]);
  });
});
