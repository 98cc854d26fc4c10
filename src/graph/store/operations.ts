import { InvalidArgumentError } from "../../shared/index.js";
import { validateFilter } from "./filter.js";
import { namespaceToPath, validateListNamespaces, validateNamespace, validatePage } from "./namespace.js";
import type {
  GetOperation,
  ListNamespacesOperation,
  Operation,
  PutOperation,
  SearchOperation,
} from "./types.js";

/**
 * A checked batch, ready to run: reads first (they see the store as it was before the batch,
 * as in LangGraph), then the writes, one per item (the last write to an item wins).
 *
 * @example
 * ```ts
 * const { reads, puts } = planStoreBatch(operations);
 * for (const read of reads) results[read.index] = runRead(read);
 * for (const put of puts) runWrite(put);
 * ```
 */
export interface StoreBatchPlan {
  /** Reads with their position in the batch. */
  reads: StoreRead[];
  /** The effective writes, one per item (its last write), in the order items first appear. */
  puts: PutOperation[];
}

/**
 * One read of a {@link StoreBatchPlan}.
 *
 * @example
 * ```ts
 * for (const read of plan.reads) if (read.kind === "get") results[read.index] = lookUp(read.op);
 * ```
 */
export type StoreRead =
  | { kind: "get"; index: number; op: GetOperation }
  | { kind: "search"; index: number; op: SearchOperation }
  | { kind: "list"; index: number; op: ListNamespacesOperation };

function describe(op: unknown): string {
  try {
    return JSON.stringify(op) ?? String(op);
  } catch {
    return String(op);
  }
}

function checkKey(key: unknown): void {
  if (typeof key !== "string") {
    throw new InvalidArgumentError(
      `Store keys are strings, got ${typeof key} (${String(key)}). Convert it, e.g. String(id).`,
    );
  }
  // PostgreSQL text cannot hold NUL; every store rejects it so that they all accept the same keys.
  if (key.includes("\0")) {
    throw new InvalidArgumentError(
      `Store keys cannot contain NUL characters (got ${JSON.stringify(key)}). Remove or replace them.`,
    );
  }
}

function checkPut(op: PutOperation): void {
  validateNamespace(op.namespace, { allowReservedRoot: true });
  checkKey(op.key);
  const { value } = op;
  if (value !== null && (typeof value !== "object" || value === undefined)) {
    throw new InvalidArgumentError(
      `Store values are objects, got ${typeof value} for key "${op.key}". Wrap it (e.g. { value: x }), or pass null to delete the item.`,
    );
  }
  const index = op.index;
  if (
    index !== undefined &&
    index !== false &&
    !(Array.isArray(index) && index.every((p) => typeof p === "string"))
  ) {
    throw new InvalidArgumentError(
      `put: index must be false or a list of field paths (e.g. ["title", "chapters[*].text"]), got ${describe(index)}.`,
    );
  }
  const ttl = op.options?.ttl;
  if (ttl !== undefined && ttl !== null && !(typeof ttl === "number" && ttl > 0 && Number.isFinite(ttl))) {
    throw new InvalidArgumentError(
      `put: ttl is a positive number of minutes (or null for no expiry), got ${String(ttl)}.`,
    );
  }
}

/**
 * Tells which operation `op` is, by its fields as LangGraph.js does: `namespacePrefix` for a
 * search, `value` for a put, `namespace` and `key` for a get, `limit` / `matchConditions` for a
 * namespace listing.
 *
 * @example
 * ```ts
 * operationKind({ namespace: ["a"], key: "k" }); // "get"
 * ```
 */
export function operationKind(op: Operation): "get" | "search" | "put" | "list" {
  if (typeof op === "object" && op !== null) {
    if ("namespacePrefix" in op) return "search";
    if ("value" in op) return "put";
    if ("namespace" in op && "key" in op) return "get";
    if ("matchConditions" in op || "limit" in op || "maxDepth" in op) return "list";
  }
  throw new InvalidArgumentError(
    `Unknown store operation ${describe(op)}. Operations are { namespace, key } (get), { namespacePrefix, … } (search), { namespace, key, value } (put) or { matchConditions, limit, offset } (list namespaces).`,
  );
}

/**
 * Checks every operation of a batch (namespaces, keys, values, filters, pages), throwing before
 * anything runs, and plans it (see {@link StoreBatchPlan}). Every store's `batch` starts here.
 *
 * @example
 * ```ts
 * const plan = planStoreBatch([{ namespace: ["a"], key: "k", value: { x: 1 } }, { namespace: ["a"], key: "k" }]);
 * plan.reads; // [{ kind: "get", index: 1, op: … }]
 * plan.puts; // [{ namespace: ["a"], key: "k", value: { x: 1 } }]
 * ```
 */
export function planStoreBatch(operations: readonly Operation[]): StoreBatchPlan {
  if (!Array.isArray(operations)) {
    throw new InvalidArgumentError(`batch() takes an array of operations, got ${typeof operations}.`);
  }
  const reads: StoreRead[] = [];
  const puts = new Map<string, PutOperation>();
  operations.forEach((op, index) => {
    const kind = operationKind(op);
    if (kind === "put") {
      const put = op as PutOperation;
      checkPut(put);
      const id = `${namespaceToPath(put.namespace)}\0${put.key}`;
      puts.set(id, put); // a later write to the same item replaces it, in the first one's place
    } else if (kind === "get") {
      const get = op as GetOperation;
      validateNamespace(get.namespace, { allowReservedRoot: true });
      checkKey(get.key);
      reads.push({ kind, index, op: get });
    } else if (kind === "search") {
      const search = op as SearchOperation;
      validateNamespace(search.namespacePrefix, { allowEmpty: true, allowReservedRoot: true });
      validateFilter(search.filter);
      validatePage("search", search.limit, search.offset);
      if (search.query !== undefined && typeof search.query !== "string") {
        throw new InvalidArgumentError(`search: query must be a string, got ${typeof search.query}.`);
      }
      reads.push({ kind, index, op: search });
    } else {
      const list = op as ListNamespacesOperation;
      validateListNamespaces(list);
      reads.push({ kind, index, op: list });
    }
  });
  return { reads, puts: [...puts.values()] };
}
