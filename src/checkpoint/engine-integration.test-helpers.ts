/**
 * The engine-integration scenario run on every saver (memory, SQLite, Postgres) and durability
 * (`sync`, `async`, `exit`): a graph that interrupts for approval, resumed with
 * `Command({ resume })`; `getState`, `getStateHistory`, `updateState`; and time travel (running
 * from a past checkpoint forks the thread). Each run returns a transcript in which checkpoint ids
 * are replaced by their position in the history, so that savers can be compared with each other.
 */
import { expect } from "vitest";
import {
  Annotation,
  type BaseCheckpointSaver,
  Command,
  END,
  interrupt,
  START,
  StateGraph,
  type StateSnapshot,
} from "../graph/index.js";
import type { RunnableConfig } from "../shared/index.js";

/** The durabilities of the engine. */
export const DURABILITIES = ["sync", "async", "exit"] as const;
export type DurabilityMode = (typeof DURABILITIES)[number];

/** A chat message as plain data (the engine's tests do not depend on the message classes). */
interface Message {
  type: "human" | "ai";
  content: string;
  id: string;
}

/** Appends messages, replacing those with an id already present (as the messages reducer does). */
function addMessages(left: Message[], right: Message[]): Message[] {
  const out = [...left];
  for (const message of right) {
    const at = out.findIndex((m) => m.id === message.id);
    if (at >= 0) out[at] = message;
    else out.push(message);
  }
  return out;
}

const human = (content: string, id: string): Message => ({ type: "human", content, id });
const ai = (content: string, id: string): Message => ({ type: "ai", content, id });

const State = Annotation.Root({
  messages: Annotation<Message[]>({ reducer: addMessages, default: () => [] }),
  approved: Annotation<string>,
  turns: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

/** agent → review (interrupts) → finish. */
function buildGraph(saver: BaseCheckpointSaver, runs: Record<string, number>) {
  const bump = (node: string) => {
    runs[node] = (runs[node] ?? 0) + 1;
  };
  return new StateGraph(State)
    .addNode("agent", (state) => {
      bump("agent");
      const n = state.messages.length;
      return {
        messages: [ai(`draft after ${n} messages`, `ai-${n}-${state.turns}`)],
        turns: 1,
      };
    })
    .addNode("review", (state) => {
      bump("review");
      const last = state.messages[state.messages.length - 1];
      const answer = interrupt({ question: "approve?", draft: last?.content }) as string;
      return { approved: answer };
    })
    .addNode("finish", (state) => {
      bump("finish");
      return { messages: [ai(`done: ${state.approved}`, `done-${state.approved}`)] };
    })
    .addEdge(START, "agent")
    .addEdge("agent", "review")
    .addEdge("review", "finish")
    .addEdge("finish", END)
    .compile({ checkpointer: saver });
}

type Graph = ReturnType<typeof buildGraph>;

async function history(graph: Graph, config: RunnableConfig): Promise<StateSnapshot[]> {
  const out: StateSnapshot[] = [];
  for await (const snapshot of graph.getStateHistory(config)) out.push(snapshot);
  return out;
}

function texts(values: unknown): string[] {
  return (((values as Record<string, unknown>).messages as Message[] | undefined) ?? []).map(
    (m) => `${m.type}:${m.content}`,
  );
}

/** A snapshot without ids: what any saver must reproduce. */
function outline(snapshot: StateSnapshot, ids: Map<string, number>) {
  const id = (config: RunnableConfig | undefined) => {
    const value = config?.configurable?.checkpoint_id as string | undefined;
    return value === undefined ? null : (ids.get(value) ?? "?");
  };
  return {
    at: id(snapshot.config),
    parent: id(snapshot.parentConfig),
    step: snapshot.metadata?.step,
    source: snapshot.metadata?.source,
    next: [...snapshot.next],
    messages: texts(snapshot.values as Record<string, unknown>),
    approved: (snapshot.values as Record<string, unknown>).approved ?? null,
    turns: (snapshot.values as Record<string, unknown>).turns ?? null,
    interrupts: snapshot.tasks.flatMap((t) => t.interrupts.map((i) => i.value)),
  };
}

/** Runs the scenario on one saver and durability; asserts what must hold on every saver; returns the transcript. */
export async function runScenario(saver: BaseCheckpointSaver, durability: DurabilityMode, threadId: string) {
  const runs: Record<string, number> = {};
  const graph = buildGraph(saver, runs);
  const config = { configurable: { thread_id: threadId }, durability };
  const transcript: Record<string, unknown> = {};

  // 1. Run until the interrupt.
  const first = (await graph.invoke({ messages: [human("write a haiku", "h-1")] }, config)) as Record<
    string,
    unknown
  >;
  const interrupts = first.__interrupt__ as { id: string; value: unknown }[];
  expect(interrupts).toHaveLength(1);
  expect(interrupts[0]?.value).toEqual({ question: "approve?", draft: "draft after 1 messages" });
  const paused = await graph.getState({ configurable: { thread_id: threadId } });
  expect(paused.next).toEqual(["review"]);
  expect(paused.tasks[0]?.interrupts[0]?.value).toEqual({
    question: "approve?",
    draft: "draft after 1 messages",
  });
  transcript.paused = texts(paused.values as Record<string, unknown>);

  // 2. Resume: the agent does not run again; the review node re-runs and gets the answer.
  const done = (await graph.invoke(new Command({ resume: "yes" }), config)) as Record<string, unknown>;
  expect(texts(done)).toEqual(["human:write a haiku", "ai:draft after 1 messages", "ai:done: yes"]);
  expect(done.approved).toBe("yes");
  expect(runs).toEqual({ agent: 1, review: 2, finish: 1 });
  const final = await graph.getState({ configurable: { thread_id: threadId } });
  expect(final.next).toEqual([]);
  expect(final.values).toEqual(done);

  // 3. updateState as "review": finish runs next, on the edited state.
  const updated = await graph.updateState(
    { configurable: { thread_id: threadId } },
    { messages: [human("one more time", "h-2")], approved: "edited" },
    "review",
  );
  const afterUpdate = await graph.getState(updated);
  expect(afterUpdate.next).toEqual(["finish"]);
  expect((afterUpdate.values as Record<string, unknown>).approved).toBe("edited");
  const continued = (await graph.invoke(null, {
    ...config,
    configurable: { thread_id: threadId },
  })) as Record<string, unknown>;
  expect(texts(continued).slice(-2)).toEqual(["human:one more time", "ai:done: edited"]);

  // 4. Time travel: run again from the checkpoint that was waiting for review (a fork).
  const before = await history(graph, { configurable: { thread_id: threadId } });
  const waiting = before.filter((s) => s.next.length === 1 && s.next[0] === "review");
  expect(waiting.length).toBeGreaterThan(0);
  const target = waiting[waiting.length - 1] as StateSnapshot;
  const targetValues = target.values;
  const forkId = target.config.configurable?.checkpoint_id as string;
  const forked = (await graph.invoke(null, {
    configurable: { thread_id: threadId, checkpoint_id: forkId },
    durability,
  })) as Record<string, unknown>;
  expect((forked.__interrupt__ as unknown[] | undefined)?.length).toBe(1);
  const resumedFork = (await graph.invoke(new Command({ resume: "fork" }), config)) as Record<
    string,
    unknown
  >;
  expect(texts(resumedFork)).toEqual(["human:write a haiku", "ai:draft after 1 messages", "ai:done: fork"]);
  expect(resumedFork.approved).toBe("fork");
  // The checkpoint forked from is unchanged; the old branch is still readable.
  const original = await graph.getState({ configurable: { thread_id: threadId, checkpoint_id: forkId } });
  expect(original.values).toEqual(targetValues);
  const after = await history(graph, { configurable: { thread_id: threadId } });
  expect(after.length).toBeGreaterThan(before.length);
  for (const old of before) {
    const again = await graph.getState(old.config);
    expect(again.values).toEqual(old.values);
    expect(again.next).toEqual(old.next);
  }

  // Ids → positions, oldest first, so transcripts of different savers compare equal.
  const ids = new Map<string, number>();
  for (const [i, s] of [...after].reverse().entries())
    ids.set(s.config.configurable?.checkpoint_id as string, i);
  transcript.history = after.map((s) => outline(s, ids));
  transcript.final = texts(resumedFork);
  transcript.lastAi = (resumedFork.messages as Message[]).filter((m) => m.type === "ai").length;
  transcript.runs = runs;
  return transcript;
}
