import type pg from "pg";
import { abortableSleep } from "../../shared/index.js";

/**
 * Listens to a checked-out client's 'error' events. pg emits one when the connection dies (the
 * backend terminated, the server restarted, the network cut), after failing the query it was
 * running; the pool listens only while the client is idle in it, so without this listener the
 * event would crash the process. The failed query is what reports the error.
 */
function ignoreClientError(): void {}

/** What {@link inTransaction} reached: whether it sent `COMMIT` (after which a failure may have committed). */
export interface TransactionProgress {
  committing: boolean;
}

/**
 * Runs `fn` in a transaction on `client` (just checked out of its pool): committed when `fn`
 * resolves, rolled back when it (or the commit) throws. The client is released either way; a
 * client whose connection died is then dropped by the pool rather than reused. `progress`, when
 * given, learns whether `COMMIT` was sent: a failure before it committed nothing.
 */
export async function inTransaction<T>(
  client: pg.PoolClient,
  fn: () => Promise<T>,
  progress?: TransactionProgress,
): Promise<T> {
  client.on("error", ignoreClientError);
  try {
    await client.query("BEGIN");
    const result = await fn();
    if (progress !== undefined) progress.committing = true;
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.removeListener("error", ignoreClientError);
    client.release();
  }
}

/**
 * SQLSTATEs and Node network errors that mean the connection a statement ran on is gone, with its
 * transaction rolled back unless its `COMMIT` was under way: the backend was terminated
 * (`pg_terminate_backend`, 57P01), the server crashed (57P02) or is starting or stopping (57P03),
 * it closed an idle session (57P05, `idle_session_timeout`) or a transaction left idle (25P03), a
 * connection exception (class 08), or the socket broke.
 */
const LOST_CONNECTION_CODES: ReadonlySet<string> = new Set([
  "57P01",
  "57P02",
  "57P03",
  "57P05",
  "25P03",
  "08000",
  "08003",
  "08006",
  "ECONNRESET",
  "EPIPE",
]);

/**
 * Whether `error` (a `pg` error) is the loss of the connection it was raised on, so that the same
 * work on another connection of the pool (which drops a dead one) may succeed. A pool that was
 * ended, or that could not connect in time, is not such a loss: trying again would not help.
 */
function connectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && LOST_CONNECTION_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : "";
  // pg's own texts for a connection that closed under a query, or that it already saw close
  return /connection terminated unexpectedly|encountered a connection error and is not queryable/i.test(
    message,
  );
}

/**
 * Milliseconds a statement whose connection was lost waits before it runs again (see
 * {@link retryOnLostConnection}). A read made just after every idle connection of its pool was
 * terminated failed a second time, on another of the dead connections, 6 times in 20 when it ran
 * again at once, 12 in 60 after one `setImmediate`, and none in 80 after this wait (60 of them on
 * a loaded machine).
 */
const RETRY_WAIT_MS = 10;

/**
 * Runs `attempt`, and once more when it fails because its connection was lost (see
 * {@link connectionLost}) and `retryable` agrees: the pool has dropped the dead connection, so the
 * second attempt runs on another. Only for work that is safe to do twice: a read, a statement
 * whose effect is the same done once or twice, or a transaction that did not reach `COMMIT`.
 * A second failure is thrown as it is.
 *
 * The second attempt waits {@link RETRY_WAIT_MS} first: connections that died with this one (a
 * restart or a failover ends every idle connection of the pool at once) have their end read
 * meanwhile, and the pool drops them instead of handing one to the second attempt.
 */
export async function retryOnLostConnection<T>(
  attempt: () => Promise<T>,
  retryable: (error: unknown) => boolean = () => true,
): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!connectionLost(error) || !retryable(error)) throw error;
  }
  await abortableSleep(RETRY_WAIT_MS, undefined);
  return attempt();
}

/**
 * How to fix the cause of a driver error (by its code: a Node network error's or PostgreSQL's
 * SQLSTATE), for the errors of `component` (`PostgresSaver` or `PostgresStore`).
 */
export function postgresHint(
  code: string,
  message: string,
  component: "PostgresSaver" | "PostgresStore",
): string {
  const noun = component === "PostgresSaver" ? "saver" : "store";
  switch (code) {
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "ETIMEDOUT":
    case "ECONNRESET":
      return "Check that PostgreSQL is running and reachable at the connection string's host and port.";
    case "57P01":
    case "57P02":
    case "57P03":
      return `The server ended or refused the connection (terminated by an administrator, restarting or shutting down): retry once it is back; the ${noun}'s pool opens new connections.`;
    case "28P01":
    case "28000":
      return "The server rejected the credentials: check the user and password of the connection string.";
    case "3D000":
      return "The database does not exist: create it, or fix the database name in the connection string.";
    case "42P01":
    case "3F000":
      return `The ${noun}'s tables are missing (was the schema dropped?): call ${noun}.setup() on a new ${component}.`;
    case "42501":
      return `The database user lacks a privilege on the ${noun}'s schema: grant it, or use a schema the user owns.`;
    case "53300":
      return "The server has no free connection slots: lower the pool's max, or raise max_connections.";
    case "40001":
    case "40P01":
      return "A concurrent transaction conflicted with this one: retry the operation.";
    case "22021":
      return component === "PostgresSaver"
        ? "PostgreSQL text cannot hold the NUL character (\\u0000): remove it from thread ids, namespaces and task ids."
        : "PostgreSQL text cannot hold the NUL character (\\u0000): remove it from namespaces and keys.";
    default:
      if (/after calling end/i.test(message))
        return `The ${noun}'s pool was ended: create a new ${component}.`;
      if (/timeout exceeded when trying to connect/i.test(message))
        return "No connection of the pool came free (or the server did not answer) within the pool's connectionTimeoutMillis: raise the pool's max or that timeout, or keep fewer connections checked out elsewhere.";
      if (/connection terminated/i.test(message))
        return "The connection to PostgreSQL was lost: retry once the server is reachable.";
      return `Check the database connection and the ${noun}'s schema.`;
  }
}

/** The statements {@link runMigrations} needs (both the saver's and the store's SQL have them). */
export interface MigrationSql {
  lockMigrations: string;
  createSchema: string;
  createMigrationsTable: string;
  selectMigrationVersion: string;
  insertMigrationVersion: string;
}

/** Whether a schema exists (what `CREATE SCHEMA IF NOT EXISTS` would need the database's CREATE privilege to find out). */
const SCHEMA_EXISTS = "SELECT 1 FROM pg_namespace WHERE nspname = $1";

/**
 * Whether `error` is the loss of a race to create a schema: another transaction (the other
 * component's setup, another app) created it while this one tried to, which PostgreSQL reports
 * on its catalog's unique index (23505) or as a duplicate schema (42P06).
 */
function lostSchemaRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "42P06";
}

/** How many times {@link runMigrations} starts over after losing a race to create the schema. */
const SCHEMA_RACE_RETRIES = 3;

/** What {@link runMigrations} sets up, to name it in its errors. */
export interface MigrationTarget {
  /** The database schema (unquoted). */
  schema: string;
  /** The advisory lock's name: processes setting up the same tables take the same one. */
  lockKey: string;
  /** The class whose errors name it (`PostgresSaver`, `PostgresStore`). */
  component: string;
  /** The error it throws for a schema set up by a newer version. */
  error: (message: string) => Error;
}

/**
 * Runs the migrations a schema has not had yet, in order, in one transaction under an advisory
 * lock (so that processes setting up at once run each migration once); the migrations table
 * records the versions done. A failure rolls everything back. A schema with migrations this
 * version does not know (set up by a newer version) is refused: its tables may not be what this
 * version reads and writes.
 */
export async function runMigrations(
  pool: pg.Pool,
  sql: MigrationSql,
  target: MigrationTarget,
  migrations: readonly string[],
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const race = { lost: false };
    try {
      // migrating twice is safe: the second transaction sees what the first committed
      await retryOnLostConnection(() => migrateOnce(pool, sql, target, migrations, race));
      return;
    } catch (error) {
      // the schema exists now: a new transaction sees it (this one's catalog cache may not)
      if (!race.lost || attempt >= SCHEMA_RACE_RETRIES) throw error;
    }
  }
}

/** One attempt of {@link runMigrations}; `race.lost` tells that creating the schema lost a race. */
async function migrateOnce(
  pool: pg.Pool,
  sql: MigrationSql,
  target: MigrationTarget,
  migrations: readonly string[],
  race: { lost: boolean },
): Promise<void> {
  const client = await pool.connect();
  await inTransaction(client, async () => {
    await client.query(sql.lockMigrations, [target.lockKey]);
    // a user who owns an existing schema but may not create schemas in the database gets by
    const exists = await client.query(SCHEMA_EXISTS, [target.schema]);
    if (exists.rows.length === 0) {
      try {
        await client.query(sql.createSchema);
      } catch (error) {
        race.lost = lostSchemaRace(error);
        throw error;
      }
    }
    await client.query(sql.createMigrationsTable);
    const { rows } = await client.query<{ v: number | null }>(sql.selectMigrationVersion);
    const current = rows[0]?.v ?? -1;
    if (current >= migrations.length) {
      throw target.error(
        `${target.component}: the tables in schema "${target.schema}" were set up by a newer version of agentgraph (migration ${current}; this version knows 0 to ${migrations.length - 1}). Upgrade agentgraph in this process, or use another schema.`,
      );
    }
    for (let v = current + 1; v < migrations.length; v++) {
      await client.query(migrations[v] as string);
      await client.query(sql.insertMigrationVersion, [v]);
    }
  });
}
