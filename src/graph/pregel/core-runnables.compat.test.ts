/**
 * Compiled graphs inside `@langchain/core` 1.4.0 runnables (a dev dependency), as LangGraph.js's
 * hierarchical-teams example uses them: a graph piped after a `RunnableLambda`, a `RunnableLambda`
 * that returns a graph, and such a sequence as another graph's node. Core recognises a runnable by
 * its `lc_runnable` flag and hands the steps it runs a `CallbackManager` as `callbacks`.
 */
import type { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { type Runnable, RunnableLambda } from "@langchain/core/runnables";
import { describe, expect, it } from "vitest";
import { Annotation, END, START, StateGraph } from "../../index.js";
import type { CallbackHandler } from "../../shared/index.js";

const Team = Annotation.Root({
  messages: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  current_files: Annotation<string>,
});
const team = new StateGraph(Team)
  .addNode("writer", (s) => ({ messages: [`wrote with ${s.current_files}`] }))
  .addEdge(START, "writer")
  .compile();
/** The graph as core's types see a runnable (core recognises it by its `lc_runnable` flag). */
const coreTeam = team as unknown as Runnable<{ messages: string[] }, typeof Team.State>;

describe("a compiled graph in @langchain/core runnables (LangGraph.js parity)", () => {
  it("is a step of a RunnableSequence: core invokes it with the previous step's output", async () => {
    const prelude = RunnableLambda.from((s: { messages: string[] }) => ({
      ...s,
      current_files: "notes.txt",
    }));
    expect(await prelude.pipe(coreTeam).invoke({ messages: ["go"] })).toEqual({
      messages: ["go", "wrote with notes.txt"],
      current_files: "notes.txt",
    });
  });

  it("is invoked when a RunnableLambda returns it, and such a sequence runs as a node", async () => {
    const enter = RunnableLambda.from(({ messages }: { messages: string[] }) => ({ messages }));
    const chain = enter
      // core runs the runnable a function returns (the function's type does not say so)
      .pipe((() => coreTeam) as unknown as (s: { messages: string[] }) => typeof Team.State)
      .pipe((r: typeof Team.State) => ({ messages: [r.messages.at(-1)] }));
    const outer = new StateGraph(Team)
      .addNode("team", chain as unknown as (s: typeof Team.State) => Partial<typeof Team.State>)
      .addEdge(START, "team")
      .addEdge("team", END)
      .compile();
    expect(await outer.invoke({ messages: ["q"] })).toEqual({ messages: ["q", "wrote with undefined"] });
  });

  it("the handlers of the CallbackManager core passes hear the graph and its nodes", async () => {
    const heard: string[] = [];
    const handler: CallbackHandler = {
      handleChainStart(_c, _i, _r, _p, _t, _m, _type, name) {
        heard.push(`start ${name}`);
      },
    };
    const seq = RunnableLambda.from((s: { messages: string[] }) => s)
      .withConfig({ runName: "pre" })
      .pipe(coreTeam);
    await seq.invoke({ messages: ["x"] }, { callbacks: [handler as unknown as BaseCallbackHandler] });
    expect(heard).toEqual([
      "start undefined",
      "start pre",
      "start LangGraph",
      "start __start__",
      "start writer",
    ]);
  });
});
