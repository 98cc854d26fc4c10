/**
 * Shared fixtures of the persistence, human-in-the-loop and time-travel behaviour tests. The
 * expected values in those tests were read off `@langchain/langgraph` 1.7.3 with probe scripts.
 */
import { expect } from "vitest";
import {
  Annotation,
  type BaseCheckpointSaver,
  type CheckpointTuple,
  type StateSnapshot,
} from "../../index.js";
import type { RunnableConfig } from "../../shared/index.js";

/** A log of the nodes' writes: every node appends to `v`. */
export const LogState = Annotation.Root({
  v: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/** One interrupt as `invoke` and `getState` report it. */
export interface InterruptValue {
  id: string;
  value: unknown;
}

/** Interrupt ids are 32 lowercase hex characters. */
export const INTERRUPT_ID = /^[0-9a-f]{32}$/;

/** Matches any id (checkpoint ids, task ids, interrupt ids). */
export const ANY_ID = expect.any(String);

/** `{ configurable: { thread_id } }`. */
export function thread(threadId: string): { configurable: { thread_id: string } } {
  return { configurable: { thread_id: threadId } };
}

/** The `__interrupt__` list of a run's result (throws when there is none). */
export function interruptsOf(result: unknown): InterruptValue[] {
  const list = (result as { __interrupt__?: InterruptValue[] } | undefined)?.__interrupt__;
  if (!Array.isArray(list)) throw new Error(`no __interrupt__ in ${JSON.stringify(result)}`);
  return list;
}

/** Drains a stream into an array of chunks of a known shape. */
export async function collectAs<T>(stream: Promise<AsyncIterable<unknown>>): Promise<T[]> {
  return (await collect(stream)) as T[];
}

/** Drains a stream into an array. */
export async function collect<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of await stream) out.push(chunk);
  return out;
}

interface HasHistory {
  getStateHistory(
    config: RunnableConfig,
    options?: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> },
  ): AsyncIterable<StateSnapshot>;
}

/** Every snapshot of `getStateHistory`, newest first. */
export async function historyOf(
  graph: HasHistory,
  config: RunnableConfig,
  options?: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> },
): Promise<StateSnapshot[]> {
  const out: StateSnapshot[] = [];
  for await (const snapshot of graph.getStateHistory(config, options)) out.push(snapshot);
  return out;
}

/** `"<step>:<source>:<next joined by ,>"` per snapshot: a compact picture of a history. */
export function outline(snapshots: readonly StateSnapshot[]): string[] {
  return snapshots.map((s) => `${s.metadata?.step}:${s.metadata?.source}:${s.next.join(",")}`);
}

/** Every tuple `saver.list(config)` yields. */
export async function listAll(
  saver: BaseCheckpointSaver,
  config: RunnableConfig,
): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const tuple of saver.list(config)) out.push(tuple);
  return out;
}

/** The checkpoint id of a config. */
export function checkpointIdOf(config: RunnableConfig | undefined): string | undefined {
  return config?.configurable?.checkpoint_id as string | undefined;
}

/** Counts calls by key: `runs.bump("a")`, then `runs.counts`. */
export class RunCounter {
  counts: Record<string, number> = {};

  bump(key: string): void {
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }

  reset(): void {
    this.counts = {};
  }
}
