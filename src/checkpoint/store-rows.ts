/**
 * What the SQL stores (SqliteStore, PostgresStore) share in reading their rows: an item's
 * decoded value, the item itself, and the literal namespace prefix a listing can narrow to.
 */
import {
  defaultSerializer,
  type Item,
  type ListNamespacesOperation,
  pathToNamespace,
  SerializationError,
} from "../graph/index.js";

/** The columns of a store row the items are built from (times as the driver gives them). */
export interface StoreItemRow {
  prefix: string;
  key: string;
  value: string;
  created_at: Date | number;
  updated_at: Date | number;
}

/** The namespace labels a search or listing can narrow to in SQL: the literal labels before any `*`. */
export function literalPrefix(op: ListNamespacesOperation): string[] {
  const prefix = op.matchConditions?.find((condition) => condition.matchType === "prefix")?.path ?? [];
  const star = prefix.indexOf("*");
  return (star < 0 ? prefix : prefix.slice(0, star)) as string[];
}

/** The value of a stored item; a row that does not decode is reported with its key and namespace. */
export function decodeStoreValue(row: StoreItemRow): Record<string, unknown> {
  try {
    return defaultSerializer.decode(row.value) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SerializationError(
      `Cannot read store item "${row.key}" in namespace [${row.prefix}]: ${message}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * The item a row stands for (`value`: its value when the caller decoded it already), its fields
 * in the order LangGraph.js's PostgresStore gives them.
 */
export function storeItem(row: StoreItemRow, value: Record<string, unknown> = decodeStoreValue(row)): Item {
  return {
    namespace: pathToNamespace(row.prefix),
    key: row.key,
    value,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
