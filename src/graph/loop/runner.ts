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

async function runMany(tasks: readonly RunningTask[], context: RunnerContext): Promise<void> {
  const failures: unknown[] = [];
  await new Promise<void>((resolve) => {
    const total = tasks.length;
    const limit =
      context.maxConcurrency !== undefined && context.maxConcurrency > 0 ? context.maxConcurrency : total;
    let started = 0;
    let settled = 0;
    const launch = (): void => {
      while (started < total && started - settled < limit) {
        const task = tasks[started++] as RunningTask;
        let pending: void | Promise<void>;
        try {
          pending = executeTask(task, context.retryPolicy);
        } catch (error) {
          queueMicrotask(() => finish(task, error === undefined ? new Error("Task failed") : error));
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
    const finish = (task: RunningTask, error: unknown): void => {
      settled += 1;
      if (error !== undefined) {
        failures.push(error);
        if (!isGraphBubbleUp(error)) context.stepController?.abort(error);
      }
      try {
        context.commit(task, error);
      } catch (commitError) {
        failures.push(commitError);
      }
      if (settled === total) resolve();
      else launch();
    };
    launch();
  });
  if (failures.length > 0) throw combineFailures(failures, context.step);
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
