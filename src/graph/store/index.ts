export { BaseStore } from "./base-store.js";
export { AsyncBatchedStore } from "./batched-store.js";
export { InvalidNamespaceError } from "./errors.js";
export { matchesFilter } from "./filter.js";
export {
  InMemoryStore,
  /** LangGraph.js's other name for {@link InMemoryStore}. */
  InMemoryStore as MemoryStore,
  type InMemoryStoreOptions,
} from "./memory-store.js";
export { namespaceToPath, pathToNamespace, selectNamespaces, validateNamespace } from "./namespace.js";
export { planStoreBatch, type StoreBatchPlan, type StoreRead } from "./operations.js";
export { getTextAtPath, tokenizePath } from "./paths.js";
export { StoreTtlPolicy } from "./ttl.js";
export type {
  Embeddings,
  FilterOperators,
  GetOperation,
  IndexConfig,
  Item,
  ListNamespacesOperation,
  ListNamespacesOptions,
  MatchCondition,
  NameSpacePath,
  NamespaceMatchType,
  Operation,
  OperationResults,
  PutOperation,
  PutOptions,
  SearchItem,
  SearchOperation,
  SearchOptions,
  TTLConfig,
} from "./types.js";
