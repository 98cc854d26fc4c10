import { GraphInterrupt, isGraphBubbleUp, isGraphInterrupt } from "../core/index.js";
import { executeTask } from "./execute-task.js";
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

/** One task: no bookkeeping at all, and no promise when the task is synchronous. */
function runOne(task: RunningTask, context: RunnerContext): void | Promise<void> {
  let pending: void | Promise<void>;
  try {
    pending = executeTask(task, context.retryPolicy);
  } catch (error) {
    context.commit(task, error);
    throw error;
  }
  if (pending === undefined) {
    context.commit(task, undefined);
    return undefined;
  }
  return pending.then(
    () => context.commit(task, undefined),
    (error: unknown) => {
      context.commit(task, error);
      throw error;
    },
  );
}

/**
 * Several tasks. The step settles when every task has, or — when a task fails for real — as soon
 * as the failures of that moment are in (siblings are aborted through the step's signal and left
 * to finish in the background, as LangGraph.js does).
 */
function runMany(tasks: readonly RunningTask[], context: RunnerContext): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failures: unknown[] = [];
    const total = tasks.length;
    const limit =
      context.maxConcurrency !== undefined && context.maxConcurrency > 0 ? context.maxConcurrency : total;
    let started = 0;
    let settled = 0;
    let done = false;
    const settle = (): void => {
      if (done) return;
      done = true;
      if (failures.length > 0) reject(combineFailures(failures, context.step));
      else resolve();
    };
    const finish = (task: RunningTask, error: unknown): void => {
      settled += 1;
      if (error !== undefined) {
        failures.push(error);
        if (!isGraphBubbleUp(error) && !done) {
          context.stepController?.abort(error);
          // let failures of the same moment join this one, then give up on the step
          setTimeout(settle, 0);
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
    const launch = (): void => {
      while (started < total && started - settled < limit) {
        const task = tasks[started++] as RunningTask;
        let pending: void | Promise<void>;
        try {
          pending = executeTask(task, context.retryPolicy);
        } catch (error) {
          const failure = error === undefined ? new Error("Task failed") : error;
          queueMicrotask(() => finish(task, failure));
          continue;
        }
        if (pending === undefined) queueMicrotask(() => finish(task, undefined));
        else {
          pending.then(
            () => finish(task, undefined),
            (error: unknown) => finish(task, error === undefined ? new Error("Task failed") : error),
          );
        }
      }
    };
    launch();
  });
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
  if (interrupts.length === 0) return failures[0];
  if (interrupts.length === 1) return interrupts[0];
  return new GraphInterrupt(interrupts.flatMap((i) => i.interrupts));
}
