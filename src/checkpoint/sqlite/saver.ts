import Database from "better-sqlite3";
import {
  type CheckpointListOptions,
  type CheckpointTuple,
  codecOf,
  EncodedCheckpointSaver,
  type MissingConfigField,
  type SaverRetentionOptions,
  type SaverWriteOperation,
  type SerializerProtocol,
} from "../../graph/index.js";
import type { RunnableConfig } from "../../shared/index.js";
import { SqliteCheckpointStorage } from "./saver-storage.js";

/**
 * Options of {@link SqliteSaver}.
 *
 * @example
 * ```ts
 * const options: SqliteSaverOptions = { ttl: { minutes: 60 * 24 * 30 } }; // forget threads idle for 30 days
 * const saver = new SqliteSaver("checkpoints.db", undefined, options);
 * ```
 */
export interface SqliteSaverOptions extends SaverRetentionOptions {}

/**
 * Keeps checkpoints in a SQLite database (through better-sqlite3), with the LangGraph.js
 * `SqliteSaver` API. Checkpoints are stored incrementally (docs/adr/0001-linear-checkpoint-storage.md):
 * a thread's size grows with the content of its state, not with turns × history, and reading
 * any checkpoint takes a fixed number of queries.
 *
 * The database runs in WAL mode with `synchronous = NORMAL`: a commit is durable once written
 * to the WAL, so an application crash loses nothing; a power cut or OS crash can lose the last
 * few commits (never corrupting the file), after which a run resumes from the checkpoint before
 * them. Set `db.pragma("synchronous = FULL")` after `setup()` if every step must survive power
 * loss. In-memory databases (`":memory:"`) keep their default journal.
 *
 * Tables are created (or upgraded) by `setup()`, which every method also runs on first use.
 * `close()` closes the database when the saver opened it (from a path).
 *
 * @example
 * ```ts
 * import { SqliteSaver } from "agentgraph/checkpoint/sqlite";
 *
 * const checkpointer = SqliteSaver.fromConnString("checkpoints.db");
 * const graph = builder.compile({ checkpointer });
 * await graph.invoke(input, { configurable: { thread_id: "conversation-1" } });
 * await checkpointer.close();
 * ```
 */
export class SqliteSaver extends EncodedCheckpointSaver {
  /** The database connection. */
  readonly db: Database.Database;
  private readonly sqlite: SqliteCheckpointStorage;
  private readonly ownsDb: boolean;

  /**
   * A saver on an open better-sqlite3 database, or on the database file at a path (created if
   * needed; `":memory:"` for a private in-memory database).
   */
  constructor(db: Database.Database | string, serde?: SerializerProtocol, options: SqliteSaverOptions = {}) {
    const database = typeof db === "string" ? new Database(db) : db;
    const storage = new SqliteCheckpointStorage(database);
    super(storage, codecOf(serde), options);
    this.db = database;
    this.sqlite = storage;
    this.ownsDb = typeof db === "string";
  }

  /** As LangGraph.js's `SqliteSaver`: `getTuple` with a `checkpoint_id` answers with the config it got. */
  protected override readonly returnsRequestedConfig: boolean = true;

  /** As LangGraph.js's `SqliteSaver`: `getTuple` answers `{ checkpoint, config, metadata, parentConfig, pendingWrites }`. */
  protected override readonly tupleLayout: "memory" | "sql" | "sqlite" = "sqlite";

  /** As LangGraph.js's `SqliteSaver`: only the checkpoint format's fields are saved. */
  protected override readonly keepsExtraFields: boolean = false;

  /** As LangGraph.js's `SqliteSaver`: a pre-v4 checkpoint always gets a tasks channel. */
  protected override readonly migratesWithoutSends: boolean = true;

  /** As LangGraph.js's `SqliteSaver`: an empty `thread_id` is no thread id. */
  protected override readonly refusesEmptyThreadId: boolean = true;

  /** LangGraph.js's `SqliteSaver`'s texts, which start the errors for configs without ids. */
  protected override configErrorText(operation: SaverWriteOperation, missing: MissingConfigField): string {
    if (missing === "configurable") return "Empty configuration supplied.";
    if (operation === "put") return 'Missing "thread_id" field in passed "config.configurable".';
    return `Missing ${missing} field in config.configurable.`;
  }

  /**
   * Lists checkpoints, newest first, as LangGraph.js's `SqliteSaver` does: a `checkpoint_id` in
   * the config does not narrow the list (use `before`, or `getTuple`), and a `limit` of 0 (or a
   * negative one) lists everything.
   */
  override list(
    config: RunnableConfig | undefined,
    options: CheckpointListOptions = {},
  ): AsyncGenerator<CheckpointTuple> {
    let narrowed = config;
    if (config?.configurable !== undefined && "checkpoint_id" in config.configurable) {
      const { checkpoint_id: _ignored, ...configurable } = config.configurable;
      narrowed = { ...config, configurable };
    }
    const { limit, ...rest } = options;
    const count = limit ? Number.parseInt(String(limit), 10) : Number.NaN;
    return super.list(narrowed, count >= 0 ? { ...rest, limit: count } : rest);
  }

  /**
   * A saver on the SQLite database file at `path` (`":memory:"` for an in-memory database).
   *
   * @example
   * ```ts
   * const saver = SqliteSaver.fromConnString(":memory:");
   * ```
   */
  static fromConnString(path: string, options: SqliteSaverOptions = {}): SqliteSaver {
    return new SqliteSaver(path, undefined, options);
  }

  /**
   * Sets the pragmas and creates or upgrades the tables. Idempotent; every method runs it on
   * first use, so calling it is optional.
   *
   * @example
   * ```ts
   * await saver.setup();
   * ```
   */
  async setup(): Promise<void> {
    this.sqlite.setup();
  }

  /**
   * Bytes of encoded data stored (for one thread, or all): the UTF-8 bytes of the stored text plus
   * the per-item overhead `MemorySaver.storedBytes` counts, so the two agree on ASCII content. The
   * file also holds indexes and page slack.
   *
   * @example
   * ```ts
   * console.log(saver.storedBytes("conversation-1"));
   * ```
   */
  storedBytes(threadId?: string): number {
    return this.sqlite.storedBytes(threadId);
  }

  /**
   * Stops the time-to-live sweeper and closes the database if the saver opened it.
   *
   * @example
   * ```ts
   * await saver.close();
   * ```
   */
  override async close(): Promise<void> {
    await super.close();
    if (this.ownsDb && this.db.open) this.db.close();
  }
}
