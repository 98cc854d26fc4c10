import {
  BRANCH_PREFIX,
  commandGotoList,
  GraphInterrupt,
  isCommand,
  isGraphBubbleUp,
  isGraphInterrupt,
  isInvalidResume,
  TASKS,
} from "../core/index.js";
import { executeTask, type TaskSettle } from "./execute-task.js";
import { isNestedRunPause } from "./interrupts.js";
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
   * Hears a task of a step of several finish, as it settles (its commit is gathered with the
   * others'): LangGraph.js's `messages` stream hears a node end before its task is committed.
   */
  readonly settled?: ((task: RunningTask) => void) | undefined;
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
  /**
   * The step is one of a graph run nested in a node: a single task that succeeds is committed
   * as many turns after its node returned as LangGraph.js takes beyond a failing one (see
   * {@link commitLater}).
   */
  readonly nested?: boolean | undefined;
  /**
   * The step is one of a root run streamed to a consumer: a lone task is gathered and committed
   * as a step of several is, in the turns LangGraph.js's runner takes for any step, so that what
   * the nodes do and what the consumer reads interleave as there (a step ahead of the consumer).
   */
  readonly gatherAlone?: boolean | undefined;
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
  if (tasks.length === 1) {
    const task = tasks[0] as RunningTask;
    return context.gatherAlone === true ? runGathered(task, context) : runOne(task, context);
  }
  return runMany(tasks, context);
}

/**
 * The lone task of a streamed root run's step (see {@link RunnerContext.gatherAlone}): committed
 * a microtask turn after it settles, as {@link runMany} commits a batch of one (its failure, its
 * error handler's run and the step's abort in the same order), without runMany's bookkeeping.
 */
function runGathered(first: RunningTask, context: RunnerContext): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const run = (task: RunningTask): void => {
      executeTask(task, context.retryPolicy, {
        done: (finished) => {
          // the commit's turn is queued before what hears the task finish queues, as in runMany
          queueMicrotask(() => {
            try {
              context.commit(finished, undefined);
            } catch (error) {
              reject(error);
              return;
            }
            resolve();
          });
          context.settled?.(finished);
        },
        failed: (failed, thrown) => {
          const error = thrown === undefined ? new Error("Task failed") : thrown;
          queueMicrotask(() => {
            const handler = handlerOf(failed, error, context);
            try {
              context.commit(failed, error);
            } catch (commitError) {
              reject(commitError);
              return;
            }
            if (handler !== undefined) {
              run(handler);
              return;
            }
            reject(error);
            // as runMany gives up a step on a real failure: the step's signal aborts
            if (!isGraphBubbleUp(error) && !isInvalidResume(error)) context.stepController?.abort(error);
          });
        },
      });
    };
    run(first);
  });
}

/**
 * One task: no bookkeeping at all, no promise when the task is synchronous, and its commit in the
 * continuation that finishes it when it is not.
 */
function runOne(task: RunningTask, context: RunnerContext): void | Promise<void> {
  return executeTask(task, context.retryPolicy, {
    done: (finished) =>
      context.nested === true ? commitLater(finished, context) : context.commit(finished, undefined),
    failed: (failed, error) => failOne(failed, error, context),
  });
}

/**
 * Commits the lone task of a nested graph's step that succeeded, once LangGraph.js would have: a
 * success settles there {@link SUCCESS_TURNS} after its node returned (plus its writers' turns), a
 * failure {@link FAILURE_TURNS} after it threw. So of parallel nested graphs (`Send`s to a
 * subgraph resumed with answers for some of them, subgraph nodes side by side), one that pauses
 * streams its interrupt before one that goes on streams its update, and their steps interleave
 * as there.
 */
function commitLater(task: RunningTask, context: RunnerContext): Promise<void> {
  const turns = SUCCESS_TURNS - FAILURE_TURNS + (task.node.commitTurns ?? 0);
  return new Promise<void>((resolve, reject) => {
    afterTurns(() => {
      try {
        context.commit(task, undefined);
        resolve();
      } catch (error) {
        reject(error);
      }
    }, turns);
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
    /** The first real failure: once its batch is committed, the step gives up (see flush). */
    let aborting: unknown;
    let stopped = false;
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
        if (!isGraphBubbleUp(error) && !isInvalidResume(error) && !done && aborting === undefined) {
          // the failures of the same moment (this gathered batch) join this one; then the
          // siblings are aborted (see flush)
          aborting = error;
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
      // once the step is given up, no further task starts (LangGraph.js starts none either)
      else if (!done && aborting === undefined) launch();
    };
    /**
     * The started tasks that have not settled (neither committed, since a commit always leaves a
     * write, if only the no-writes marker, nor waiting for the gathered commit), once the step is
     * given up: a task waiting to retry a failed attempt is committed with that failure (LangGraph.js
     * reports it when the wait ends, without counting it as a failure of the step); the others are
     * abandoned.
     */
    const stopRunning = (): void => {
      for (let index = 0; index < started; index++) {
        const task = (index < tasks.length ? tasks[index] : added?.[index - tasks.length]) as RunningTask;
        if (arrived.some((entry) => entry.task === task)) continue;
        if (task.pendingRetry !== undefined) {
          try {
            context.commit(task, task.pendingRetry);
          } catch (commitError) {
            failures.push(commitError);
          }
        } else if (task.writes.length === 0 && context.abandon !== undefined) context.abandon(task);
      }
    };
    /** Tasks that finished and wait for the gathered commit (see {@link commitOrder}). */
    let arrived: Arrival[] = [];
    /** Microtask turns since the gathered batch's first arrival, and whether it came as the step started. */
    let turn = 0;
    let fromLaunch = false;
    const flush = (): void => {
      const batch = arrived;
      arrived = [];
      const ordered = batch.length > 1 ? inCommitOrder(batch) : batch;
      for (const entry of ordered) finish(entry.task, entry.error);
      if (aborting !== undefined && !stopped) {
        // as LangGraph.js does when it commits the failure: abort the siblings still running and
        // give up on the step. What they throw because of the abort, or later (a retry, a
        // timer), is not a failure of the step
        stopped = true;
        context.stepController?.abort(aborting);
        if (!done) {
          stopRunning();
          settle();
        }
      }
    };
    const arrive = (index: number, task: RunningTask, error: unknown): void => {
      if (arrived.length === 0) {
        turn = 0;
        fromLaunch = launching;
        // long enough to order a failure after the successes LangGraph.js would commit before it
        const turns = Math.max(GATHER_TURNS, SUCCESS_TURNS + slowestWriters + 2);
        const tick = (): void => {
          turn += 1;
          if (turn >= turns || (settled + arrived.length === total && turn >= lastSettleOf(arrived))) flush();
          else queueMicrotask(tick);
        };
        queueMicrotask(tick);
      }
      // a task that finished later than the step's start did in LangGraph.js at least two turns
      // after the synchronous ones (its node's promise); then a success takes its sequence's and
      // its writers' turns, a failure fewer
      const settledAt = launching || !fromLaunch ? turn : Math.max(2, turn);
      const at =
        settledAt +
        (error === undefined
          ? SUCCESS_TURNS + (task.node.commitTurns ?? 0) + outcomeTurns(task, launching)
          : FAILURE_TURNS + (task.node.isGraph !== true && isNestedRunPause(error) ? CALLED_GRAPH_TURNS : 0));
      arrived.push({ index, task, error, at });
      if (error === undefined) context.settled?.(task);
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
    let slowestWriters = 0;
    for (let i = 0; i < tasks.length; i++) {
      const turns = (tasks[i] as RunningTask).node.commitTurns ?? 0;
      if (turns > slowestWriters) slowestWriters = turns;
    }
    let launching = true;
    launch();
    launching = false;
  });
}

/**
 * Microtask turns during which tasks that finish are gathered before being committed (at least;
 * see {@link commitOrder}).
 */
const GATHER_TURNS = 8;

/** A task that finished, waiting for the gathered commit. */
interface Arrival {
  /** Its start index in the step. */
  readonly index: number;
  readonly task: RunningTask;
  readonly error: unknown;
  /** When LangGraph.js would commit it, in microtask turns from the batch's first arrival. */
  readonly at: number;
}

/**
 * Microtask turns LangGraph.js takes from a node's return to its task's settling (through its
 * runnable sequence), before the node's writers run; and from a node's throw (an interrupt, an
 * error) to its task's settling (measured on LangGraph.js 1.7.3).
 */
const SUCCESS_TURNS = 56;
const FAILURE_TURNS = 34;

/**
 * Microtask turns more that the pause of a graph run inside a node function (`await
 * graph.invoke(…)`) takes to fail its task than that of a compiled graph run as a node, in
 * LangGraph.js 1.7.3 (through the node's code and its runnable): so a graph node whose run
 * paused at the same time is committed first, whatever the order of their tasks.
 */
const CALLED_GRAPH_TURNS = 3;

/**
 * Microtask turns LangGraph.js spends committing one task (recording and streaming its writes)
 * before it looks for the next finished one.
 */
const COMMIT_TURNS = 3;

/**
 * How much sooner or later than its node's {@link SUCCESS_TURNS} and writers' turns LangGraph.js
 * commits a task, by what the node did (measured on LangGraph.js 1.7.3): a turn sooner when it
 * returned nothing; a turn later when it returned a `Command` with a `goto`, and another when a
 * router chose a node or sent a `Send` (a router choosing `END` writes nothing); and a turn later
 * when an `async` node's result goes through writers.
 */
function outcomeTurns(task: RunningTask, sync: boolean): number {
  const output = task.output;
  const gotos = isCommand(output) ? commandGotoList(output).length : 0;
  const writes = task.writes;
  let triggers = 0;
  for (let i = 0; i < writes.length; i++) {
    const channel = (writes[i] as readonly [string, unknown])[0];
    if (channel === TASKS || channel.startsWith(BRANCH_PREFIX)) triggers += 1;
  }
  // what the routers wrote: the triggers beyond those of the static edges and of the goto
  const routed = triggers - (task.node.edgeTriggers ?? 0) - gotos > 0;
  let turns = (output === undefined ? -1 : 0) + (gotos > 0 ? 1 : 0) + (routed ? 1 : 0);
  if (!sync && (gotos > 0 || routed || (task.node.commitTurns ?? 0) > 0)) turns += 1;
  return turns;
}

/**
 * When the last of a gathered batch settles in LangGraph.js, in turns from the batch's first
 * arrival. Once every task of the step is in, no later arrival can change the order, and the
 * step ends then, as LangGraph.js's does (a nested graph's step ends, and its run reaches its
 * parent, as much later than a sibling's as there).
 */
function lastSettleOf(batch: readonly Arrival[]): number {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { at } of batch) {
    if (at < first) first = at;
    if (at > last) last = at;
  }
  return last - first;
}

/** Which of two tasks LangGraph.js sees finish first: the earlier, a failure on a tie, else the first started. */
function settlesFirst(x: Arrival, y: Arrival): boolean {
  if (x.at !== y.at) return x.at < y.at;
  const xFailed = x.error !== undefined;
  if (xFailed !== (y.error !== undefined)) return xFailed;
  return x.index < y.index;
}

/** Batches larger than this are ordered by {@link settlesFirst} alone (a step of many `Send`s). */
const SIMULATED_BATCH = 64;

/**
 * The tasks of a gathered batch in the order LangGraph.js commits them. A task there settles a few
 * turns after its node returned, once its writers ran (the node's `commitTurns`: a node with no
 * edges before one with edges, before one with a router), but a node that throws (an interrupt, an
 * error) at once; the loop commits the first task to settle, and then, {@link COMMIT_TURNS} later,
 * picks among those settled by then the one started first (or, when none has, the next to settle).
 */
function inCommitOrder(batch: Arrival[]): Arrival[] {
  // tasks that settle in the order they were started are committed in that order
  let inOrder = true;
  for (let i = 1; i < batch.length && inOrder; i++) {
    const before = batch[i - 1] as Arrival;
    const entry = batch[i] as Arrival;
    if (entry.index < before.index || !settlesFirst(before, entry)) inOrder = false;
  }
  if (inOrder) return batch;
  if (batch.length > SIMULATED_BATCH) {
    return batch.slice().sort((x, y) => (settlesFirst(x, y) ? -1 : settlesFirst(y, x) ? 1 : 0));
  }
  const pending = batch.slice().sort((x, y) => x.index - y.index);
  const ordered: Arrival[] = [];
  let now = Number.NEGATIVE_INFINITY;
  while (pending.length > 0) {
    // the first started among those settled by now, or else the next to settle
    let at = pending.findIndex((entry) => entry.at <= now);
    if (at === -1) {
      at = 0;
      for (let i = 1; i < pending.length; i++) {
        if (settlesFirst(pending[i] as Arrival, pending[at] as Arrival)) at = i;
      }
      now = (pending[at] as Arrival).at;
    }
    ordered.push(pending.splice(at, 1)[0] as Arrival);
    now += COMMIT_TURNS;
  }
  return ordered;
}

/** Calls `fn` after `turns` microtask turns (one callback for all of them). */
export function afterTurns(fn: () => void, turns: number): void {
  let left = turns;
  const step = (): void => {
    left -= 1;
    if (left <= 0) fn();
    else queueMicrotask(step);
  };
  queueMicrotask(step);
}

/** Settles after `turns` microtask turns (see {@link afterTurns}). */
export function waitTurns(turns: number): Promise<void> {
  return new Promise<void>((resolve) => afterTurns(resolve, turns));
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
