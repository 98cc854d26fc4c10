import type pg from "pg";

/**
 * Runs `fn` in a transaction on `client`: committed when `fn` resolves, rolled back when it (or
 * the commit) throws. The client is released either way.
 */
export async function inTransaction<T>(client: pg.PoolClient, fn: () => Promise<T>): Promise<T> {
  try {
    await client.query("BEGIN");
    const result = await fn();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
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

/**
 * Runs the migrations a schema has not had yet, in order, in one transaction under an advisory
 * lock named `lockKey` (so that processes setting up at once run each migration once); the
 * migrations table records the versions done. A failure rolls everything back.
 */
export async function runMigrations(
  pool: pg.Pool,
  sql: MigrationSql,
  lockKey: string,
  migrations: readonly string[],
): Promise<void> {
  const client = await pool.connect();
  await inTransaction(client, async () => {
    await client.query(sql.lockMigrations, [lockKey]);
    await client.query(sql.createSchema);
    await client.query(sql.createMigrationsTable);
    const { rows } = await client.query<{ v: number | null }>(sql.selectMigrationVersion);
    const current = rows[0]?.v ?? -1;
    for (let v = current + 1; v < migrations.length; v++) {
      await client.query(migrations[v] as string);
      await client.query(sql.insertMigrationVersion, [v]);
    }
  });
}
