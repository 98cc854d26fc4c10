/**
 * What a conformance case runs with: the saver factory and the hooks of the saver under test,
 * tracking every saver a case creates so that it is disposed of afterwards.
 */
import { type BaseCheckpointSaver, EncodedCheckpointSaver } from "../graph/index.js";
import { internalsOf } from "./saver-conformance-support.js";

/**
 * Makes a saver to test (a fresh, empty one, or one on a database shared by the cases).
 *
 * @example
 * ```ts
 * const create: SaverFactory = () => SqliteSaver.fromConnString(":memory:");
 * ```
 */
export type SaverFactory = () => Promise<BaseCheckpointSaver> | BaseCheckpointSaver;

/**
 * What a case needs beyond the `BaseCheckpointSaver` methods.
 *
 * @example
 * ```ts
 * const portable = saverConformanceCases().filter((c) => c.requires.length === 0);
 * ```
 */
export type SaverCapability =
  /** `prune(threadIds, { keepLast })` and `deleteStaleThreads(maxAgeMs)`. */
  | "retention"
  /** `storedBytes(threadId?)` (a number, or a promise of one). */
  | "storedBytes"
  /** Access to the saver's `CheckpointStorage` (agentgraph's savers), to count storage calls. */
  | "storage"
  /** A second saver over the same storage: the `reopen` hook, or agentgraph's savers. */
  | "reopen"
  /** A way to damage stored rows: the `corrupt` hook, or agentgraph's savers. */
  | "corrupt";

/**
 * Hooks of the saver under test.
 *
 * @example
 * ```ts
 * const options: SaverConformanceOptions = {
 *   corrupt: (saver, threadId) => db.prepare("DELETE FROM agentgraph_checkpoint_items WHERE thread_id = ?").run(threadId),
 * };
 * ```
 */
export interface SaverConformanceOptions {
  /**
   * Damages what is stored for a thread (in namespace `""`) so that reading its latest checkpoint
   * must fail. Default, for agentgraph's savers: the latest checkpoint row is rewritten with a
   * truncated record through the saver's storage.
   */
  corrupt?: ((saver: BaseCheckpointSaver, threadId: string) => void | Promise<void>) | undefined;
  /**
   * A second saver over the same storage, with cold caches (as another process would have).
   * Default, for agentgraph's savers: a copy of the saver with empty caches.
   */
  reopen?: ((saver: BaseCheckpointSaver) => BaseCheckpointSaver | Promise<BaseCheckpointSaver>) | undefined;
  /** Releases a saver a case created (default: its `close()` method, if any). */
  dispose?: ((saver: BaseCheckpointSaver) => void | Promise<void>) | undefined;
}

/**
 * A case could not run: the saver lacks a capability it needs (see {@link SaverCapability}).
 *
 * @example
 * ```ts
 * try {
 *   await testCase.run(create);
 * } catch (e) {
 *   if (e instanceof SaverConformanceSkipped) console.log("skipped:", e.capability);
 *   else throw e;
 * }
 * ```
 */
export class SaverConformanceSkipped extends Error {
  override name = "SaverConformanceSkipped";
  readonly capability: SaverCapability;
  constructor(capability: SaverCapability, detail: string) {
    super(`Skipped: the saver has no ${capability} capability (${detail}).`);
    this.capability = capability;
  }
}

/** The retention API of agentgraph's savers. */
export interface RetentionSaver extends BaseCheckpointSaver {
  prune(threadIds: readonly string[], options: { keepLast: number }): Promise<void>;
  deleteStaleThreads(maxAgeMs: number): Promise<string[]>;
}

/** The per-case helpers. */
export class CaseContext {
  private readonly created: BaseCheckpointSaver[] = [];
  private readonly factory: SaverFactory;
  readonly options: SaverConformanceOptions;

  constructor(factory: SaverFactory, options: SaverConformanceOptions) {
    this.factory = factory;
    this.options = options;
  }

  /** A saver from the factory (disposed of when the case ends). */
  async create(): Promise<BaseCheckpointSaver> {
    const saver = await this.factory();
    this.created.push(saver);
    return saver;
  }

  /** Whether {@link reopen} can work for this saver. */
  canReopen(saver: BaseCheckpointSaver): boolean {
    return this.options.reopen !== undefined || internalsOf(saver) !== undefined;
  }

  /** A second saver over the same storage, with cold caches. */
  async reopen(saver: BaseCheckpointSaver): Promise<BaseCheckpointSaver> {
    if (this.options.reopen !== undefined) return this.options.reopen(saver);
    const internals = internalsOf(saver);
    if (internals === undefined) {
      throw new SaverConformanceSkipped(
        "reopen",
        "pass a reopen hook that opens a second saver on the same storage",
      );
    }
    // A copy of the saver (same class and storage, so overridden methods still run) with empty
    // caches, as another process would have; a plain encoder over the storage if that fails.
    const caches = (saver as unknown as { caches?: { constructor: new (capacity: number) => unknown } })
      .caches;
    if (caches !== undefined && typeof caches.constructor === "function") {
      const copy = Object.create(Object.getPrototypeOf(saver) as object) as Record<string, unknown>;
      Object.assign(copy, saver);
      copy.caches = new caches.constructor(512);
      return copy as unknown as BaseCheckpointSaver;
    }
    return new EncodedCheckpointSaver(internals.storage, internals.codec);
  }

  /** The saver as a {@link RetentionSaver}, or a skip. */
  retention(saver: BaseCheckpointSaver): RetentionSaver {
    const candidate = saver as Partial<RetentionSaver>;
    if (typeof candidate.prune !== "function" || typeof candidate.deleteStaleThreads !== "function") {
      throw new SaverConformanceSkipped("retention", "no prune() / deleteStaleThreads() methods");
    }
    return saver as RetentionSaver;
  }

  /** `saver.storedBytes(threadId)`, or a skip. */
  async storedBytes(saver: BaseCheckpointSaver, threadId?: string): Promise<number> {
    const measure = (saver as { storedBytes?: (threadId?: string) => number | Promise<number> }).storedBytes;
    if (typeof measure !== "function")
      throw new SaverConformanceSkipped("storedBytes", "no storedBytes() method");
    return measure.call(saver, threadId);
  }

  /** Damages a thread's stored rows. */
  async corrupt(saver: BaseCheckpointSaver, threadId: string): Promise<void> {
    if (this.options.corrupt !== undefined) {
      await this.options.corrupt(saver, threadId);
      return;
    }
    const internals = internalsOf(saver);
    if (internals === undefined) {
      throw new SaverConformanceSkipped("corrupt", "pass a corrupt hook that damages a thread's stored rows");
    }
    const [head] = await internals.storage.checkpointChain(threadId, "", undefined);
    if (head === undefined) throw new Error(`corrupt(): thread ${threadId} has no checkpoint to damage`);
    await internals.storage.write({
      checkpoints: [{ ...head, record: head.record.slice(0, Math.floor(head.record.length / 2)) }],
      blobs: [],
      items: [],
      writes: [],
    });
  }

  /** Disposes of every saver created. */
  async dispose(): Promise<void> {
    for (const saver of this.created.splice(0).reverse()) {
      if (this.options.dispose !== undefined) await this.options.dispose(saver);
      else {
        const close = (saver as { close?: () => unknown }).close;
        if (typeof close === "function") await close.call(saver);
      }
    }
  }
}
