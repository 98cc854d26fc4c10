/**
 * What the SQL stores (SqliteStore, PostgresStore) share in reading their rows (an item's decoded
 * value, the item itself, the literal namespace prefix a listing can narrow to) and in naming what
 * a failed batch did.
 */
import {
  defaultSerializer,
  type Item,
  type ListNamespacesOperation,
  type Operation,
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

/** What a store batch does, for its errors: its operation when it has one, else how many it has. */
export function describeStoreBatch(operations: readonly Operation[]): string {
  const op = operations[0];
  if (operations.length !== 1 || op === undefined) return `run a batch of ${operations.length} operations`;
  if ("namespacePrefix" in op) return `search namespace ${JSON.stringify(op.namespacePrefix)}`;
  if ("value" in op) {
    const verb = op.value === null ? "delete" : "put";
    return `${verb} item ${JSON.stringify(op.key)} of namespace ${JSON.stringify(op.namespace)}`;
  }
  if ("key" in op) return `get item ${JSON.stringify(op.key)} of namespace ${JSON.stringify(op.namespace)}`;
  return "list namespaces";
}
