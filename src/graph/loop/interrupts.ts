import { getAsyncContext } from "../../shared/index.js";
import { contentHash, GraphInterrupt, GraphValueError, type Interrupt, RESUME } from "../core/index.js";
import { CURRENT_TASK, type LangGraphRunnableConfig, type RunningTask } from "./types.js";

/** "No value": distinct from `undefined`, which is a legal resume value. */
export const NO_RESUME: unique symbol = Symbol("no resume");

/**
 * What a task knows about answers to its interrupts: the answers given so far (in order), a
 * scalar answer waiting for the first unanswered interrupt, and answers addressed by id.
 */
export class Scratchpad {
  /** Answers to this task's interrupts, in the order the interrupts are reached. */
  readonly resume: unknown[];
  /** How many `interrupt()` calls this attempt has made. */
  interruptCounter = 0;
  private readonly nullResume: () => unknown;
  private readonly resumeMap: Readonly<Record<string, unknown>> | undefined;
  /** The scratchpad of the task running this task's graph (answers given to a parent reach subgraphs). */
  private readonly parent: Scratchpad | undefined;

  constructor(
    resume: unknown[],
    nullResume: () => unknown,
    resumeMap: Readonly<Record<string, unknown>> | undefined,
    parent?: Scratchpad,
  ) {
    this.resume = resume;
    this.nullResume = nullResume;
    this.resumeMap = resumeMap;
    this.parent = parent;
  }

  /** The answer for interrupt `id`, from the id map or the scalar answer, or {@link NO_RESUME}. */
  answerFor(id: string): unknown {
    if (this.resumeMap !== undefined && Object.hasOwn(this.resumeMap, id)) return this.resumeMap[id];
    const own = this.nullResume();
    if (own !== NO_RESUME) return own;
    return this.parent === undefined ? NO_RESUME : this.parent.answerFor(id);
  }
}

/** Key of a task's scratchpad on the task (set by the loop when the run has a checkpointer). */
export const SCRATCHPAD: unique symbol = Symbol.for("agentgraph.scratchpad") as never;

/**
 * The id of the n-th interrupt of a task: a hash of the task's namespace (and the index), the
 * same every time the task runs again from the same checkpoint, so an answer finds its interrupt.
 */
export function interruptId(taskNs: string, index: number): string {
  const text = index === 0 ? taskNs : `${taskNs}|${index}`;
  let hex = "";
  for (const ch of contentHash(text)) hex += ch.charCodeAt(0).toString(16).padStart(2, "0");
  return hex.slice(0, 32);
}

/**
 * Pauses the graph and asks for input. The first time a node reaches `interrupt(value)`, the run
 * stops: `invoke` returns the state with `__interrupt__: [{ id, value }]`, and the thread waits.
 * Resume with `graph.invoke(new Command({ resume: answer }), config)`: the node runs again from
 * its start, and this call returns `answer`. A node may interrupt several times; each call gets
 * its own answer, in order. Needs a checkpointer.
 *
 * @example
 * ```ts
 * const review = (state) => {
 *   const verdict = interrupt({ question: "Approve this plan?", plan: state.plan });
 *   return { approved: verdict === "yes" };
 * };
 * ```
 */
export function interrupt<Value = unknown, Resume = unknown>(value: Value): Resume {
  const config = getAsyncContext<LangGraphRunnableConfig<unknown>>();
  const task = (config as Record<symbol, unknown> | undefined)?.[CURRENT_TASK] as RunningTask | undefined;
  if (task === undefined) {
    throw new GraphValueError(
      "interrupt() was called outside of a graph node. Call it inside a node or a task.",
    );
  }
  return interruptTask<Value, Resume>(task, value);
}

/** {@link interrupt} for a known task: what a node's `config.interrupt` calls. */
export function interruptTask<Value = unknown, Resume = unknown>(task: RunningTask, value: Value): Resume {
  const scratchpad = (task as unknown as Record<symbol, unknown>)[SCRATCHPAD] as Scratchpad | undefined;
  if (scratchpad === undefined) {
    throw new GraphValueError(
      "No checkpointer set: interrupt() needs one to save the run while it waits. Compile the graph with a checkpointer, e.g. compile({ checkpointer: new MemorySaver() }), and pass a thread_id.",
      { code: "MISSING_CHECKPOINTER" },
    );
  }
  const index = scratchpad.interruptCounter++;
  if (index < scratchpad.resume.length) return scratchpad.resume[index] as Resume;
  const id = interruptId(task.checkpointNs, index);
  const answer = scratchpad.answerFor(id);
  if (answer !== NO_RESUME) {
    scratchpad.resume.push(answer);
    recordResume(task, scratchpad.resume);
    return answer as Resume;
  }
  const pause: Interrupt<Value> = { id, value };
  throw new GraphInterrupt([pause]);
}

/** Keeps the task's answers among its writes, so a later interrupt of the same task replays them. */
function recordResume(task: RunningTask, resume: unknown[]): void {
  const writes = task.writes;
  for (let i = writes.length - 1; i >= 0; i--)
    if ((writes[i] as [string, unknown])[0] === RESUME) writes.splice(i, 1);
  writes.push([RESUME, [...resume]]);
}
