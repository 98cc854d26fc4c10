import pg from "pg";
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
import { PostgresCheckpointStorage } from "./saver-storage.js";

/**
 * Options of {@link PostgresSaver}.
 *
 * @example
 * ```ts
 * const options: PostgresSaverOptions = { schema: "agents", ttl: { minutes: 60 * 24 * 30 } };
 * const saver = PostgresSaver.fromConnString(process.env.DATABASE_URL!, options);
 * ```
 */
export interface PostgresSaverOptions extends SaverRetentionOptions {
  /** The database schema of the saver's tables (default `"public"`); created by `setup()` if needed. */
  schema?: string | undefined;
  /**
   * Name the statements, so each connection parses and plans them once (default `true`). Turn
   * off behind a pooler that cannot keep prepared statements (PgBouncer < 1.21 in transaction mode).
   */
  preparedStatements?: boolean | undefined;
}

/**
 * Keeps checkpoints in PostgreSQL (through `pg`), with the LangGraph.js `PostgresSaver` API, for
 * apps that run on several processes or machines. Checkpoints are stored incrementally
 * (docs/adr/0001-linear-checkpoint-storage.md): a thread's size grows with the content of its
 * state, not with turns × history; reading any checkpoint takes a fixed number of queries; each
 * `put` and `putWrites` is one statement (one round trip, one transaction). Channel versions are
 * unique across forks, so a fork never reads a sibling branch's values.
 *
 * `setup()` creates the schema and tables (or upgrades them) under an advisory lock, so several
 * processes may call it at once; the saver also runs it on first use. `end()` closes the pool
 * when the saver created it (`fromConnString`); a pool you pass in stays yours to end.
 *
 * @example
 * ```ts
 * import { PostgresSaver } from "agentgraph/checkpoint/postgres";
 *
 * const checkpointer = PostgresSaver.fromConnString("postgresql://user:pass@localhost:5432/db", {
 *   schema: "agents",
 * });
 * await checkpointer.setup();
 * const graph = builder.compile({ checkpointer });
 * await graph.invoke(input, { configurable: { thread_id: "conversation-1" } });
 * await checkpointer.end();
 * ```
 */
export class PostgresSaver extends EncodedCheckpointSaver {
  /** The connection pool. */
  readonly pool: pg.Pool;
  /** The schema of the saver's tables. */
  readonly schema: string;
  private readonly postgres: PostgresCheckpointStorage;
  private ownsPool: boolean;
  private ended = false;

  /** A saver on a `pg` pool (which stays the caller's to end). */
  constructor(pool: pg.Pool, serde?: SerializerProtocol, options: PostgresSaverOptions = {}) {
    const storage = new PostgresCheckpointStorage(pool, {
      schema: options.schema,
      preparedStatements: options.preparedStatements,
    });
    super(storage, codecOf(serde), options);
    this.pool = pool;
    this.schema = storage.schema;
    this.postgres = storage;
    this.ownsPool = false;
  }

  /** As LangGraph.js's `PostgresSaver`: values are saved by channel version, so those without a version are not. */
  protected override readonly keepsUnversionedValues: boolean = false;

  /** As LangGraph.js's `PostgresSaver` (`metadata @> filter`): `list`'s filter matches values that contain its own. */
  protected override readonly filtersByContainment: boolean = true;

  /**
   * LangGraph.js's `PostgresSaver`'s text for a config without `configurable` starts that error;
   * the others start with its `MemorySaver`'s (its `PostgresSaver` leaves them to the database).
   */
  protected override configErrorText(operation: SaverWriteOperation, missing: MissingConfigField): string {
    if (missing === "configurable" && operation === "put")
      return 'Missing "configurable" field in "config" param.';
    return super.configErrorText(operation, missing);
  }

  /**
   * Lists checkpoints, newest first; a `limit` is cut to an integer as LangGraph.js's
   * `PostgresSaver` cuts it (`parseInt`: `1.5` lists one, `0.5` none, `"2"` two).
   */
  override list(
    config: RunnableConfig | undefined,
    options: CheckpointListOptions = {},
  ): AsyncGenerator<CheckpointTuple> {
    const limit = options.limit;
    if (limit === undefined || Number.isInteger(limit)) return super.list(config, options);
    return super.list(config, { ...options, limit: Number.parseInt(String(limit), 10) });
  }

  /**
   * A saver that connects with a connection string (`postgresql://user@host:5432/db`) through a
   * pool of its own, which {@link end} closes.
   *
   * @example
   * ```ts
   * const saver = PostgresSaver.fromConnString(process.env.DATABASE_URL!, { schema: "agents" });
   * ```
   */
  static fromConnString(connectionString: string, options: PostgresSaverOptions = {}): PostgresSaver {
    const pool = new pg.Pool({ connectionString });
    // pg reports a connection that dies while idle in the pool (a server restart, a terminated
    // backend) as an 'error' event, which would crash the process with no listener. The pool drops
    // that connection and the next query opens a new one; failed queries still reject.
    pool.on("error", () => {});
    const saver = new PostgresSaver(pool, undefined, options);
    saver.ownsPool = true;
    return saver;
  }

  /**
   * Creates the schema and tables, or upgrades them (pending migrations, in one transaction under
   * an advisory lock). Idempotent and safe to run from several processes at once.
   *
   * @example
   * ```ts
   * await saver.setup();
   * ```
   */
  async setup(): Promise<void> {
    await this.postgres.setup();
  }

  /**
   * Bytes of encoded data stored (for one thread, or all): the UTF-8 bytes of the stored text plus
   * the per-item overhead `MemorySaver.storedBytes` counts, so the two agree on ASCII content.
   * Tables also hold indexes and row headers (and TOAST compresses long values).
   *
   * @example
   * ```ts
   * console.log(await saver.storedBytes("conversation-1"));
   * ```
   */
  async storedBytes(threadId?: string): Promise<number> {
    return this.postgres.storedBytes(threadId);
  }

  /**
   * Stops the time-to-live sweeper and ends the pool if the saver created it. Idempotent.
   *
   * @example
   * ```ts
   * await saver.end();
   * ```
   */
  async end(): Promise<void> {
    await super.close();
    if (this.ownsPool && !this.ended) {
      this.ended = true;
      await this.pool.end();
    }
  }

  /** Same as {@link end}. */
  override async close(): Promise<void> {
    await this.end();
  }
}
