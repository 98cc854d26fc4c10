// Workloads B and G: the cost of checkpointing, and what a long thread stores.
//
//   B  linear3 and selfloop (as in workload A) with a checkpointer, one fresh thread per invoke;
//      µs per invoke and per superstep, in --durability async (default) or sync.
//   G  a two-node loop over a messages state that appends one AIMessage (with a tool call) and
//      one ToolMessage of --chars characters per turn, for each N in --turns; stored bytes in
//      total and per turn, the raw bytes of the messages, ms per turn, and getState latency on a
//      freshly opened saver (the first read; for the last N also the median over five savers
//      opened one after another). Same graph as ../shared/bench/bench-g-thread.ts.
//
// Usage: tsx bench/workloads/persistence.ts --impl agentgraph --saver sqlite --workload G --turns 50,200,500
import { check, emit, gc, median, parseArgs, round, timeEach, timeFor, warmUp } from "../lib/harness.js";
import { implFromArgs, loadFullImpl } from "../lib/impl.js";
import { openSaver, type SaverKind } from "../lib/savers.js";

const args = parseArgs();
const impl = implFromArgs(args);
const api = await loadFullImpl(impl);
const { StateGraph, Annotation, START, END, MessagesAnnotation, AIMessage, HumanMessage, ToolMessage } = api;
const kind = (args.saver ?? "sqlite") as SaverKind;
const workload = args.workload ?? "B";
const durability = (args.durability ?? "async") as "async" | "sync";

const text = (prefix: string, chars: number) => (prefix + " " + "x".repeat(chars)).slice(0, chars);

async function workloadB(): Promise<void> {
  const handle = await openSaver(impl, kind, `b-${durability}`);
  try {
    const LinearState = Annotation.Root({ x: Annotation() });
    const linear = new StateGraph(LinearState)
      .addNode("a", (s: { x: number }) => ({ x: s.x + 1 }))
      .addNode("b", (s: { x: number }) => ({ x: s.x + 1 }))
      .addNode("c", (s: { x: number }) => ({ x: s.x + 1 }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addEdge("c", END)
      .compile({ checkpointer: handle.saver });
    let thread = 0;
    const run = () =>
      linear.invoke({ x: 0 }, { configurable: { thread_id: `linear-${thread++}` }, durability });
    const first = await run();
    check(first.x === 3, `linear3 returned x=${first.x}`);
    await warmUp(run, Number(args.warmup ?? 50), Number(args["warmup-ms"] ?? 500));
    gc();
    const ms = await timeFor(run, Number(args.invokes ?? 200), Number(args["time-ms"] ?? 1500));
    const us = median(ms) * 1000;
    emit({
      workload: "B",
      case: `linear3_${kind}_${durability}`,
      impl,
      us_per_invoke: round(us),
      us_per_superstep: round(us / 3),
    });

    const steps = Number(args.steps ?? 1000);
    const LoopState = Annotation.Root({ i: Annotation(), target: Annotation() });
    const loop = new StateGraph(LoopState)
      .addNode("step", (s: { i: number }) => ({ i: s.i + 1 }))
      .addEdge(START, "step")
      .addConditionalEdges("step", (s: { i: number; target: number }) => (s.i < s.target ? "step" : END), [
        "step",
        END,
      ])
      .compile({ checkpointer: handle.saver });
    const runLoop = () =>
      loop.invoke(
        { i: 0, target: steps },
        { configurable: { thread_id: `loop-${thread++}` }, recursionLimit: steps * 10, durability },
      );
    const looped = await runLoop();
    check(looped.i === steps, `selfloop returned i=${looped.i}`);
    gc();
    const loopMs = await timeEach(Number(args.loops ?? 3), runLoop);
    emit({
      workload: "B",
      case: `selfloop${steps}_${kind}_${durability}`,
      impl,
      us_per_superstep: round((median(loopMs) * 1000) / steps),
    });
  } finally {
    await handle.close();
  }
}

async function workloadG(turns: number, chars: number, repeatReads: boolean): Promise<void> {
  const handle = await openSaver(impl, kind, `g-${turns}-${chars}`);
  try {
    const isTool = (m: { getType?: () => string; _getType?: () => string }) =>
      (m.getType?.() ?? m._getType?.()) === "tool";
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("model", (state: { messages: { getType?: () => string }[] }) => {
        const turn = state.messages.filter(isTool).length;
        return {
          messages: [
            new AIMessage({
              content: text(`Turn ${turn}: calling lookup.`, chars),
              id: `ai-${turn}`,
              tool_calls: [
                { id: `call_${turn}`, name: "lookup", args: { query: `q${turn}` }, type: "tool_call" },
              ],
            }),
          ],
        };
      })
      .addNode("tool", (state: { messages: { tool_calls: { id: string; args: { query: string } }[] }[] }) => {
        const call = state.messages[state.messages.length - 1]?.tool_calls[0] as {
          id: string;
          args: { query: string };
        };
        return {
          messages: [
            new ToolMessage({
              content: text(`Result for ${call.args.query}:`, chars),
              tool_call_id: call.id,
              id: `tool-${call.id}`,
            }),
          ],
        };
      })
      .addEdge(START, "model")
      .addEdge("model", "tool")
      .addConditionalEdges("tool", (state: { messages: unknown[] }) =>
        state.messages.length >= 1 + 2 * turns ? END : "model",
      )
      .compile({ checkpointer: handle.saver });
    const config = { configurable: { thread_id: "run" }, recursionLimit: 2 * turns + 10, durability };
    const input = {
      messages: [new HumanMessage({ content: text("Please research this topic.", chars), id: "human-0" })],
    };
    gc();
    const started = performance.now();
    const out = await graph.invoke(input, config);
    const totalMs = performance.now() - started;
    check(out.messages.length === 1 + 2 * turns, `got ${out.messages.length} messages`);
    // biome-ignore lint/suspicious/noExplicitAny: either runtime's messages
    const raw = out.messages.reduce((sum: number, m: any) => {
      const body = {
        content: m.content,
        id: m.id,
        tool_calls: m.tool_calls ?? [],
        tool_call_id: m.tool_call_id,
      };
      return sum + Buffer.byteLength(JSON.stringify(body));
    }, 0);
    await handle.reopen();
    // the same graph, reading through the freshly opened saver
    const reader = graph;
    reader.checkpointer = handle.saver;
    const t = performance.now();
    const snapshot = await reader.getState({ configurable: { thread_id: "run" } });
    const getStateMs = performance.now() - t;
    check(snapshot.values.messages.length === 1 + 2 * turns, "getState returned a short history");
    // A single read is at the mercy of whatever else the machine (and the engine's background
    // compiler) does in those few milliseconds: for the longest thread (last, so that the first
    // reads of every size run after the same warm-up as ever), the same read on four more
    // freshly opened savers, and the median of the five (each saver knows nothing of the thread;
    // the process is warmer).
    const fresh = [getStateMs];
    for (let i = 0; i < (repeatReads ? 4 : 0); i++) {
      await handle.reopen();
      reader.checkpointer = handle.saver;
      const started = performance.now();
      const again = await reader.getState({ configurable: { thread_id: "run" } });
      fresh.push(performance.now() - started);
      check(again.values.messages.length === 1 + 2 * turns, "getState returned a short history");
    }
    const stored = await handle.storedBytes();
    emit({
      workload: "G",
      case: `thread_${kind}_${chars}c_n${turns}`,
      impl,
      ms_per_turn: round(totalMs / turns, 3),
      raw_message_bytes: raw,
      stored_bytes: stored,
      stored_bytes_per_turn: round(stored / turns, 1),
      stored_over_raw: round(stored / raw, 2),
      get_state_ms: round(getStateMs, 2),
      ...(repeatReads ? { get_state_median5_ms: round(median(fresh), 2) } : {}),
    });
  } finally {
    await handle.close();
  }
}

if (workload === "B") await workloadB();
else {
  const chars = Number(args.chars ?? 200);
  const sizes = (args.turns ?? "50,200").split(",").map(Number);
  for (const [i, turns] of sizes.entries()) await workloadG(turns, chars, i === sizes.length - 1);
}
