import { GraphInterrupt, isGraphBubbleUp, isGraphInterrupt, isInvalidResume } from "../core/index.js";
import { executeTask, type TaskSettle } from "./execute-task.js";
import type { RetryPolicy, RunningTask } from "./types.js";

/** What {@link runTasks} needs from the loop: narrow capabilities, not the loop itself. */
export interface RunnerContext {
  readonly step: number;
  readonly maxConcurrency: number | undefined;
  readonly retryPolicy: RetryPolicy | undefined;
  /** Aborts the other tasks of the step after a failure (present when the step has several tasks). */
  readonly stepController: AbortController | undefined;
  /** Commits a finished task: records and streams its writes. */
  readonly commit: (task: RunningTask, error: unknown) => void;
  /**
   * Makes (and registers with the step) the task that handles a failure of a node with an
   * `errorHandler`; the runner runs it in place of failing the step.
   */
  readonly errorHandlerTask: (failed: RunningTask, error: unknown) => RunningTask;
  /**
   * Records a task still running when a failure gave up on its step (it is aborted and left to
   * finish in the background; what it does then is not committed).
   */
  readonly abandon?: ((task: RunningTask) => void) | undefined;
}

/** The handler task of a failure that goes to the node's error handler (made before the commit, as the reference streams them). */
function handlerOf(task: RunningTask, error: unknown, context: RunnerContext): RunningTask | undefined {
  if (task.node.errorHandler === undefined || isGraphBubbleUp(error)) return undefined;
  return context.errorHandlerTask(task, error);
}

/**
 * Runs the tasks of one superstep concurrently (at most `maxConcurrency` at a time), committing
 * each as soon as it finishes. Completion goes through a counter, never a race over the
 * still-running tasks, so a step of N tasks costs O(N).
 *
 * When a task fails, the others are aborted through the step's signal and the error is thrown
 * once all have settled (several failures → an `AggregateError`). Interrupts raised by several
 * tasks are merged into one `GraphInterrupt`.
 */
export function runTasks(tasks: readonly RunningTask[], context: RunnerContext): void | Promise<void> {
  if (tasks.length === 1) return runOne(tasks[0] as RunningTask, context);
  return runMany(tasks, context);
}

/**
 * One task: no bookkeeping at all, no promise when the task is synchronous, and its commit in the
 * continuation that finishes it when it is not.
 */
function runOne(task: RunningTask, context: RunnerContext): void | Promise<void> {
  return executeTask(task, context.retryPolicy, {
    done: (finished) => context.commit(finished, undefined),
    failed: (failed, error) => failOne(failed, error, context),
  });
}

function failOne(task: RunningTask, error: unknown, context: RunnerContext): void | Promise<void> {
  const handler = handlerOf(task, error, context);
  context.commit(task, error);
  if (handler === undefined) throw error;
  return runOne(handler, context);
}

/**
 * Several tasks. The step settles when every task has, or — when a task fails for real — as soon
 * as the failures of that moment are in (siblings are aborted through the step's signal and left
 * to finish in the background, as LangGraph.js does).
 */
function runMany(tasks: readonly RunningTask[], context: RunnerContext): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failures: unknown[] = [];
    let total = tasks.length;
    /** Error-handler tasks added to the step (after `tasks`). */
    let added: RunningTask[] | undefined;
    const limit =
      context.maxConcurrency !== undefined && context.maxConcurrency > 0 ? context.maxConcurrency : total;
    let started = 0;
    let settled = 0;
    let done = false;
    let aborting = false;
    const settle = (): void => {
      if (done) return;
      done = true;
      if (failures.length > 0) reject(combineFailures(failures, context.step));
      else resolve();
    };
    const finish = (task: RunningTask, error: unknown): void => {
      settled += 1;
      const handler = error === undefined || done ? undefined : handlerOf(task, error, context);
      if (handler !== undefined) {
        if (added === undefined) added = [handler];
        else added.push(handler);
        total += 1;
      } else if (error !== undefined) {
        failures.push(error);
        // an answer its interrupt's responseSchema rejected fails the step once the others finish
        if (!isGraphBubbleUp(error) && !isInvalidResume(error) && !done && !aborting) {
          aborting = true;
          // let failures of the same moment join this one, then abort the siblings and give up on
          // the step: what they throw because of the abort is not a failure of the step
          setTimeout(() => {
            context.stepController?.abort(error);
            if (context.abandon !== undefined) abandonRunning(context.abandon);
            settle();
          }, 0);
        }
      }
      if (!done) {
        try {
          context.commit(task, error);
        } catch (commitError) {
          failures.push(commitError);
        }
      }
      if (settled === total) settle();
      else if (!done) launch();
    };
    /**
     * The started tasks that have not settled: neither committed (a commit always leaves a write,
     * if only the no-writes marker) nor waiting for the gathered commit.
     */
    const abandonRunning = (abandon: (task: RunningTask) => void): void => {
      for (let index = 0; index < started; index++) {
        const task = (index < tasks.length ? tasks[index] : added?.[index - tasks.length]) as RunningTask;
        if (task.writes.length === 0 && !arrived.some((entry) => entry.task === task)) abandon(task);
      }
    };
    /** Tasks that finished and wait for the gathered commit, with their start index. */
    let arrived: { index: number; task: RunningTask; error: unknown }[] = [];
    const flush = (): void => {
      const batch = arrived;
      arrived = [];
      // failures in the order they happened, then successes in start order
      for (const entry of batch) if (entry.error !== undefined) finish(entry.task, entry.error);
      const succeeded = batch.filter((entry) => entry.error === undefined);
      if (succeeded.length > 1) succeeded.sort((x, y) => x.index - y.index);
      for (const entry of succeeded) finish(entry.task, undefined);
    };
    const arrive = (index: number, task: RunningTask, error: unknown): void => {
      arrived.push({ index, task, error });
      if (arrived.length === 1) afterTurns(flush, GATHER_TURNS);
    };
    /** A started task's settlement: it arrives, with its error if it failed. */
    const arrival = (index: number): TaskSettle => ({
      done: (task) => arrive(index, task, undefined),
      failed: (task, error) => arrive(index, task, error === undefined ? new Error("Task failed") : error),
    });
    const launch = (): void => {
      while (started < total && started - settled < limit) {
        const index = started++;
        const task = (index < tasks.length ? tasks[index] : added?.[index - tasks.length]) as RunningTask;
        executeTask(task, context.retryPolicy, arrival(index));
      }
    };
    launch();
  });
}

/**
 * Microtask turns during which tasks that finish are gathered before being committed. LangGraph.js
 * commits a task a few turns after its node returned (once its writers ran), but a node that
 * throws (an interrupt, an error) at once: among tasks of a step that settle together, failures
 * are committed (and streamed) first, in the order they happened, then the successes in the order
 * the tasks were started.
 */
const GATHER_TURNS = 8;

/** Calls `fn` after `turns` microtask turns. */
export function afterTurns(fn: () => void, turns: number): void {
  if (turns <= 1) queueMicrotask(fn);
  else queueMicrotask(() => afterTurns(fn, turns - 1));
}

function combineFailures(failures: unknown[], step: number): unknown {
  const errors = failures.filter((f) => !isGraphBubbleUp(f));
  if (errors.length === 1) return errors[0];
  if (errors.length > 1) {
    return new AggregateError(
      errors,
      `Multiple errors occurred during superstep ${step}. See the "errors" field of this exception for more details.`,
    );
  }
  const interrupts = failures.filter(isGraphInterrupt);
  // several commands for the parent graph (parallel handoffs): the last to arrive wins, as the
  // last one committed does in LangGraph.js
  if (interrupts.length === 0) return failures[failures.length - 1];
  if (interrupts.length === 1) return interrupts[0];
  return new GraphInterrupt(interrupts.flatMap((i) => i.interrupts));
}
