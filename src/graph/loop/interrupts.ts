import {
  getAsyncContext,
  isStandardSchema,
  isThenable,
  type StandardSchemaLike,
} from "../../shared/index.js";
import {
  _markInvalidResume,
  contentHash,
  ERROR,
  GraphInterrupt,
  GraphValueError,
  INTERRUPT,
  type Interrupt,
  RESUME,
  type StandardSchemaOutput,
  UnknownInterruptError,
} from "../core/index.js";
import { CURRENT_TASK, type LangGraphRunnableConfig, type RunningTask } from "./types.js";

/** The interrupts with which a nested graph's run paused, as its task receives them. */
const nestedRunPauses = new WeakSet<GraphInterrupt>();

/** Records that `error` is the pause of a nested graph's run, on its way to the task that ran it. */
export function markNestedRunPause(error: GraphInterrupt): void {
  nestedRunPauses.add(error);
}

/** Whether `error` is a nested graph run's pause (see {@link markNestedRunPause}). */
export function isNestedRunPause(error: unknown): boolean {
  return typeof error === "object" && error !== null && nestedRunPauses.has(error as GraphInterrupt);
}

/** "No value": distinct from `undefined`, which is a legal resume value. */
export const NO_RESUME: unique symbol = Symbol("no resume");

/** A task's way to the scalar answer it may take: `take()` uses it up, `peek()` only looks ({@link NO_RESUME}: none). */
export interface ScalarAnswer {
  take(): unknown;
  peek(): unknown;
}

/** No scalar answer. */
export const NO_SCALAR_ANSWER: ScalarAnswer = { take: () => NO_RESUME, peek: () => NO_RESUME };

/**
 * What a task knows about answers to its interrupts: the answers given so far (in order), a
 * scalar answer waiting for the first unanswered interrupt, and answers addressed by id.
 */
export class Scratchpad {
  /** Answers to this task's interrupts, in the order the interrupts are reached. */
  readonly resume: unknown[];
  /** How many `interrupt()` calls this attempt has made. */
  interruptCounter = 0;
  private readonly scalar: ScalarAnswer;
  private readonly resumeMap: Readonly<Record<string, unknown>> | undefined;
  /** The scratchpad of the task running this task's graph (answers given to a parent reach subgraphs). */
  private readonly parent: Scratchpad | undefined;
  /** Whether the parent's scalar answer applies here too (not when the step has its own). */
  private readonly parentScalar: boolean;

  constructor(
    resume: unknown[],
    scalar: ScalarAnswer,
    resumeMap: Readonly<Record<string, unknown>> | undefined,
    parent?: Scratchpad,
    parentScalar = true,
  ) {
    this.resume = resume;
    this.scalar = scalar;
    this.resumeMap = resumeMap;
    this.parent = parent;
    this.parentScalar = parentScalar;
  }

  /**
   * The scalar answer this task would get now (its own, else its parents'), without using it up,
   * or {@link NO_RESUME}: what a subgraph this task runs starts its resumed step with.
   */
  peekScalar(): unknown {
    const own = this.scalar.peek();
    if (own !== NO_RESUME || this.parent === undefined || !this.parentScalar) return own;
    return this.parent.peekScalar();
  }

  /**
   * The answer for interrupt `id`, or {@link NO_RESUME}: the one an id map (this task's or a
   * parent's) gives it, else the scalar answer. As in LangGraph.js an answer addressed to the
   * interrupt's id wins over a scalar answer still available (one saved by an earlier resume).
   */
  answerFor(id: string): unknown {
    const mapped = this.mappedAnswerFor(id);
    return mapped === NO_RESUME ? this.scalarAnswer() : mapped;
  }

  /** The scalar answer of this task, else of its parents (when theirs applies here), or {@link NO_RESUME}. */
  private scalarAnswer(): unknown {
    const own = this.scalar.take();
    if (own !== NO_RESUME || this.parent === undefined || !this.parentScalar) return own;
    return this.parent.scalarAnswer();
  }

  /** The answer for interrupt `id` from the id maps of this task and its parents only. */
  private mappedAnswerFor(id: string): unknown {
    if (this.resumeMap !== undefined && Object.hasOwn(this.resumeMap, id)) return this.resumeMap[id];
    return this.parent === undefined ? NO_RESUME : this.parent.mappedAnswerFor(id);
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

/** Options of {@link interrupt}. */
export interface InterruptOptions {
  /**
   * The expected answer: a Zod schema, or a JSON Schema object. It is shown to clients on the
   * interrupt as `response_schema` (JSON Schema), so they can render a typed form. A Zod schema
   * also parses the resume value (what `interrupt` returns is the parsed value); a JSON Schema
   * object is passed through to clients without validating the answer.
   */
  responseSchema?: StandardSchemaLike | Record<string, unknown>;
}

/**
 * Pauses the graph and asks for input. The first time a node reaches `interrupt(value)`, the run
 * stops: `invoke` returns the state with `__interrupt__: [{ id, value }]`, and the thread waits.
 * Resume with `graph.invoke(new Command({ resume: answer }), config)`: the node runs again from
 * its start, and this call returns `answer`. A node may interrupt several times; each call gets
 * its own answer, in order. Needs a checkpointer.
 *
 * With `{ responseSchema }` the interrupt carries the JSON Schema of the expected answer
 * (`response_schema`); a Zod schema also parses the answer, and an answer it rejects makes the
 * resume fail with the schema's error (`isInvalidResume(error)` is true) once the step's other
 * tasks finish; the interrupt stays pending and can be answered again.
 *
 * @example
 * ```ts
 * const review = (state) => {
 *   const verdict = interrupt({ question: "Approve this plan?", plan: state.plan });
 *   return { approved: verdict === "yes" };
 * };
 * // typed by the schema: { approved: boolean }
 * const typed = () => interrupt("Approve?", { responseSchema: z.object({ approved: z.boolean() }) });
 * ```
 */
// (`Schema` is checked on the parameter, not constrained, so that `typeof interrupt<Value, Resume>`
// instantiates both signatures, as LangGraph.js's typed `interrupt` option reads it)
export function interrupt<Value, Schema>(
  value: Value,
  options: InterruptOptions & { responseSchema: Schema & StandardSchemaLike },
): StandardSchemaOutput<Schema>;
export function interrupt<Value = unknown, Resume = unknown>(
  value: Value,
  options?: InterruptOptions,
): Resume;
export function interrupt<Value = unknown, Resume = unknown>(
  value: Value,
  options?: InterruptOptions,
): Resume {
  const config = getAsyncContext<LangGraphRunnableConfig<unknown>>();
  const task = (config as Record<symbol, unknown> | undefined)?.[CURRENT_TASK] as RunningTask | undefined;
  if (task === undefined) {
    throw new GraphValueError(
      "Called interrupt() outside the context of a graph. Call it inside a node or a task.",
    );
  }
  return interruptTask<Value, Resume>(task, value, options);
}

/**
 * The value a typed `interrupt` (`typeof interrupt<Value, Resume>`) sends, or the union of them
 * for a record of typed interrupts; `unknown` otherwise.
 */
export type InferInterruptInputType<T> = T extends (value: infer Value, options?: InterruptOptions) => unknown
  ? Value
  : T extends Record<string, (value: never, options?: InterruptOptions) => unknown>
    ? { [K in keyof T]: InferInterruptInputType<T[K]> }[keyof T]
    : unknown;

/**
 * The resume value a typed `interrupt` (`typeof interrupt<Value, Resume>`) returns, or the union
 * of them for a record of typed interrupts; `unknown` otherwise.
 */
export type InferInterruptResumeType<T> = T extends (value: never, options?: InterruptOptions) => infer Resume
  ? Resume
  : T extends Record<string, (value: never, options?: InterruptOptions) => unknown>
    ? { [K in keyof T]: InferInterruptResumeType<T[K]> }[keyof T]
    : unknown;

/** {@link interrupt} for a known task: what a node's `config.interrupt` calls. */
export function interruptTask<Value = unknown, Resume = unknown>(
  task: RunningTask,
  value: Value,
  options?: InterruptOptions,
): Resume {
  const scratchpad = (task as unknown as Record<symbol, unknown>)[SCRATCHPAD] as Scratchpad | undefined;
  if (scratchpad === undefined) {
    throw new GraphValueError(
      "No checkpointer set: interrupt() needs one to save the run while it waits. Compile the graph with a checkpointer, e.g. compile({ checkpointer: new MemorySaver() }), and pass a thread_id.",
      { lc_error_code: "MISSING_CHECKPOINTER" },
    );
  }
  const schema = options?.responseSchema;
  const index = scratchpad.interruptCounter++;
  if (index < scratchpad.resume.length) return parseResume(schema, scratchpad.resume[index]) as Resume;
  // numbered by the answers so far, as in LangGraph.js (not by this call's place: an earlier
  // interrupt of this attempt the node caught leaves the count unchanged)
  const id = interruptId(task.checkpointNs, scratchpad.resume.length);
  const answer = scratchpad.answerFor(id);
  if (answer !== NO_RESUME) {
    const parsed = parseResume(schema, answer);
    scratchpad.resume.push(answer);
    recordResume(task, scratchpad.resume);
    return parsed as Resume;
  }
  const pause: Interrupt<Value> = { id, value };
  if (schema !== undefined) pause.response_schema = responseJsonSchema(schema);
  throw new GraphInterrupt([pause]);
}

/** A Zod schema (classic or mini, any copy), recognised by shape. */
function isZodSchema(
  schema: unknown,
): schema is StandardSchemaLike & { parse?: (value: unknown) => unknown } {
  return isStandardSchema(schema) && schema["~standard"].vendor === "zod";
}

/**
 * The answer as a Zod `responseSchema` parses it (other schemas leave it as it is). A rejected
 * answer throws the schema's error, marked with `_markInvalidResume`.
 */
function parseResume(schema: InterruptOptions["responseSchema"], answer: unknown): unknown {
  if (!isZodSchema(schema)) return answer;
  try {
    if (typeof schema.parse === "function") return schema.parse(answer);
    const result = schema["~standard"].validate(answer);
    if (isThenable(result)) {
      throw new GraphValueError(
        "The responseSchema of interrupt() validates asynchronously, which a resume value cannot be checked with: use a schema without async refinements or transforms.",
      );
    }
    if (result.issues !== undefined) throw new ResumeValidationError(result.issues);
    return result.value;
  } catch (error) {
    _markInvalidResume(error);
    throw error;
  }
}

/** A resume value a Zod schema without `parse` (zod/mini) rejected; shaped as Zod's own error. */
class ResumeValidationError extends Error {
  readonly issues: readonly unknown[];
  constructor(issues: readonly unknown[]) {
    super(JSON.stringify(issues, null, 2));
    this.name = "$ZodError";
    this.issues = issues;
  }
}

const jsonSchemas = new WeakMap<object, Record<string, unknown>>();

type JsonSchemaCapable = {
  toJSONSchema?: (params?: Record<string, unknown>) => unknown;
  "~standard": {
    jsonSchema?: {
      input?: (options: Record<string, unknown>) => unknown;
      output?: (options: Record<string, unknown>) => unknown;
    };
  };
};

/**
 * The JSON Schema of a `responseSchema`, as LangGraph.js puts it on the interrupt: a Zod schema
 * converted (its output side; its input side when it holds transforms), another Standard JSON
 * Schema by its own converter (draft-07), a JSON Schema object as it is. Cached per schema.
 */
function responseJsonSchema(schema: StandardSchemaLike | Record<string, unknown>): Record<string, unknown> {
  const cached = jsonSchemas.get(schema);
  if (cached !== undefined) return cached;
  let converted: unknown = schema;
  if (isStandardSchema(schema)) {
    const capable = schema as unknown as JsonSchemaCapable;
    const std = capable["~standard"].jsonSchema;
    if (isZodSchema(schema)) {
      try {
        converted =
          typeof std?.output === "function"
            ? std.output({ target: "draft-2020-12" })
            : capable.toJSONSchema?.();
      } catch {
        // transforms cannot be represented on the output side: describe the input instead
        converted =
          typeof std?.input === "function"
            ? std.input({ target: "draft-2020-12" })
            : capable.toJSONSchema?.({ io: "input", unrepresentable: "any" });
      }
    } else if (typeof std?.input === "function") {
      converted = std.input({ target: "draft-07" });
    }
  }
  const result = (typeof converted === "object" && converted !== null ? converted : {}) as Record<
    string,
    unknown
  >;
  jsonSchemas.set(schema, result);
  return result;
}
/** Keeps the task's answers among its writes, so a later interrupt of the same task replays them. */
function recordResume(task: RunningTask, resume: unknown[]): void {
  const writes = task.writes;
  for (let i = writes.length - 1; i >= 0; i--)
    if ((writes[i] as [string, unknown])[0] === RESUME) writes.splice(i, 1);
  writes.push([RESUME, [...resume]]);
}

/** The `configurable` key that turns on strict resume (LangGraph.js `CONFIG_KEY_STRICT_RESUME`). */
export const CONFIG_KEY_STRICT_RESUME = "__pregel_strict_resume";

/** Whether `value` looks like an interrupt id (32 lowercase hex digits, as LangGraph.js's are). */
export function isInterruptId(value: string): boolean {
  return /^[0-9a-f]{32}$/.test(value);
}

/**
 * The ids of the interrupts still waiting for an answer in a checkpoint's saved writes (task id →
 * `[channel, value]` writes): those of tasks that wrote no output.
 */
export function pendingInterruptIds(
  byTask: ReadonlyMap<string, readonly (readonly [string, unknown])[]> | undefined,
): Set<string> {
  const pending = new Set<string>();
  if (byTask === undefined) return pending;
  for (const writes of byTask.values()) {
    if (writes.some(([channel]) => isTaskOutput(channel))) continue;
    for (const [channel, value] of writes) {
      if (channel !== INTERRUPT || !Array.isArray(value)) continue;
      for (const item of value as { id?: unknown }[]) {
        if (typeof item?.id === "string") pending.add(item.id);
      }
    }
  }
  return pending;
}

function isTaskOutput(channel: string): boolean {
  return (
    channel !== ERROR && channel !== "__error_source_node__" && channel !== INTERRUPT && channel !== RESUME
  );
}

/**
 * Strict resume (`configurable.__pregel_strict_resume: true`): refuses, with an
 * {@link UnknownInterruptError} and before anything is written, a resume map that is empty or
 * names an interrupt that is not pending, and a single value while several interrupts are
 * pending.
 */
export function refuseUnmatchedResume(resume: unknown, pending: ReadonlySet<string>): void {
  const pendingIds = [...pending].sort();
  if (isPlainRecord(resume) && Object.keys(resume).every(isInterruptId)) {
    const ids = Object.keys(resume);
    if (ids.length === 0) {
      throw new UnknownInterruptError(
        `The resume map names no interrupt. Pending interrupts: ${listIds(pendingIds)}.`,
        { reason: "empty_map", pendingIds },
      );
    }
    const unknown = ids.filter((id) => !pending.has(id)).sort();
    if (unknown.length > 0) {
      throw new UnknownInterruptError(
        `Unknown or already-consumed interrupt: ${unknown[0]}. Pending interrupts: ${listIds(pendingIds)}; answer those by id.`,
        { reason: "not_pending", interruptIds: unknown, pendingIds },
      );
    }
  } else if (pending.size > 1) {
    throw new UnknownInterruptError(
      `When there are multiple pending interrupts, you must specify the interrupt id when resuming. Pass new Command({ resume: { [id]: value } }) with one of: ${listIds(pendingIds)}.`,
      { reason: "ambiguous", pendingIds },
    );
  }
}

function listIds(ids: readonly string[]): string {
  return ids.length === 0 ? "none" : ids.join(", ");
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
