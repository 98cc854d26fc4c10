import { afterEach, describe, expect, it, vi } from "vitest";
import {
  Annotation,
  Command,
  GraphCallbackHandler,
  type GraphInterruptEvent,
  type GraphLifecycleEvent,
  type GraphResumeEvent,
  interrupt,
  MemorySaver,
  START,
  StateGraph,
} from "../../index.js";
import type { CallbackHandler } from "../../shared/index.js";

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

class Recorder extends GraphCallbackHandler {
  readonly events: ["interrupt" | "resume", GraphLifecycleEvent][] = [];
  override handleInterrupt(event: GraphInterruptEvent) {
    this.events.push(["interrupt", event]);
  }
  override handleResume(event: GraphResumeEvent) {
    this.events.push(["resume", event]);
  }
  take() {
    return this.events.splice(0).map(([kind, event]) => ({
      kind,
      status: event.status,
      checkpointNs: event.checkpointNs.map((segment) => segment.split(":")[0]),
      interrupts: "interrupts" in event ? event.interrupts.map((i) => i.value) : undefined,
      checkpointId: event.checkpointId,
      runId: event.runId,
    }));
  }
}

/** p asks, then sub asks (inside a nested graph), then a breakpoint before z. */
function build() {
  const sub = new StateGraph(State)
    .addNode("s1", () => ({ log: [`s1:${interrupt("sub?")}`] }))
    .addEdge(START, "s1")
    .compile();
  return new StateGraph(State)
    .addNode("p", () => ({ log: [`p:${interrupt("q")}`] }))
    .addNode("sub", sub)
    .addNode("z", () => ({ log: ["z"] }))
    .addEdge(START, "p")
    .addEdge("p", "sub")
    .addEdge("sub", "z")
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ["z"] });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("GraphCallbackHandler", () => {
  it("hears the root graph pause and every graph resume, as LangGraph.js reports them", async () => {
    const graph = build();
    const recorder = new Recorder();
    const config = { configurable: { thread_id: "t" }, callbacks: [recorder] };

    await graph.invoke({ log: [] }, config);
    const [paused] = recorder.take();
    expect(paused).toMatchObject({
      kind: "interrupt",
      status: "pending",
      checkpointNs: [],
      interrupts: ["q"],
    });
    expect(paused?.checkpointId).toBe((await graph.getState(config)).config.configurable?.checkpoint_id);
    expect(typeof paused?.runId).toBe("string");

    await graph.invoke(new Command({ resume: "a" }), config);
    const second = recorder.take();
    expect(
      second.map(({ kind, status, checkpointNs, interrupts }) => ({
        kind,
        status,
        checkpointNs,
        interrupts,
      })),
    ).toEqual([
      { kind: "resume", status: "pending", checkpointNs: [], interrupts: undefined },
      { kind: "interrupt", status: "pending", checkpointNs: [], interrupts: ["sub?"] },
    ]);
    // the run resumed from the checkpoint it had paused at; one run, one id
    expect(second[0]?.checkpointId).toBe(paused?.checkpointId);
    expect(second[0]?.runId).toBe(second[1]?.runId);

    await graph.invoke(new Command({ resume: "b" }), config);
    expect(
      recorder
        .take()
        .map(({ kind, status, checkpointNs, interrupts }) => ({ kind, status, checkpointNs, interrupts })),
    ).toEqual([
      { kind: "resume", status: "pending", checkpointNs: [], interrupts: undefined },
      // the nested graph resumes too
      { kind: "resume", status: "pending", checkpointNs: ["sub"], interrupts: undefined },
      // the breakpoint before z: no interrupt values
      { kind: "interrupt", status: "interrupt_before", checkpointNs: [], interrupts: [] },
    ]);

    const done = await graph.invoke(null, config);
    expect(done.log).toContain("s1:b");
    expect(done.log.at(-1)).toBe("z");
    expect(recorder.take().map(({ kind }) => kind)).toEqual(["resume"]);
  });

  it("hears a streamed run too, and a plain handler object is not one", async () => {
    const graph = build();
    const recorder = new Recorder();
    // a handler object with a method of that name, not a GraphCallbackHandler
    const plain = { handleInterrupt: vi.fn() } as unknown as CallbackHandler & {
      handleInterrupt: () => void;
    };
    const stream = await graph.stream(
      { log: [] },
      { configurable: { thread_id: "s" }, callbacks: [recorder, plain] },
    );
    for await (const _chunk of stream) {
      // drained
    }
    expect(recorder.take().map(({ kind, interrupts }) => [kind, interrupts])).toEqual([["interrupt", ["q"]]]);
    expect(plain.handleInterrupt).not.toHaveBeenCalled();
    expect(GraphCallbackHandler.isInstance(recorder)).toBe(true);
    expect(GraphCallbackHandler.isInstance(plain)).toBe(false);
  });

  it("logs a failing handler, or fails the run with raiseError", async () => {
    class Failing extends GraphCallbackHandler {
      override handleInterrupt(): void {
        throw new Error("observer broke");
      }
    }
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const quiet = new Failing();
    const result = await build().invoke(
      { log: [] },
      { configurable: { thread_id: "f1" }, callbacks: [quiet] },
    );
    expect((result as { __interrupt__?: unknown[] }).__interrupt__).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith("Error in handler Failing, handleInterrupt: Error: observer broke");

    const loud = new Failing();
    loud.raiseError = true;
    await expect(
      build().invoke({ log: [] }, { configurable: { thread_id: "f2" }, callbacks: [loud] }),
    ).rejects.toThrow("observer broke");
    expect(error).toHaveBeenCalledWith("Error in handler Failing, handleInterrupt: Error: observer broke");
  });

  it("gives the run the id chain callbacks heard it start with, as LangGraph.js's run manager does", async () => {
    const heard: [string, string][] = [];
    class Correlating extends Recorder {
      handleChainStart(_chain: unknown, _inputs: unknown, runId: string, parentRunId?: string) {
        if (parentRunId === undefined) heard.push(["start", runId]);
      }
    }
    const graph = build();
    const recorder = new Correlating();
    const config = { configurable: { thread_id: "ids" }, callbacks: [recorder] };
    await graph.invoke({ log: [] }, config);
    await graph.invoke(new Command({ resume: "a" }), config);
    const events = recorder.take();
    expect(heard).toHaveLength(2);
    expect(events.map((e) => e.runId)).toEqual([heard[0]?.[1], heard[1]?.[1], heard[1]?.[1]]);
    expect(heard[0]?.[1]).not.toBe(heard[1]?.[1]);
    // the caller's runId, when given, is the id both hear
    await graph.invoke(new Command({ resume: "b" }), { ...config, runId: "my-run" });
    expect(heard[2]).toEqual(["start", "my-run"]);
    // a nested graph's run is a run of its own (LangGraph.js: the subgraph's chain run)
    const [root, nested, paused] = recorder.take();
    expect([root?.checkpointNs, nested?.checkpointNs, paused?.checkpointNs]).toEqual([[], ["sub"], []]);
    expect([root?.runId, paused?.runId]).toEqual(["my-run", "my-run"]);
    expect(typeof nested?.runId).toBe("string");
    expect(nested?.runId).not.toBe("my-run");
  });
});
