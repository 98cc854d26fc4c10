export { PostgresSaver, type PostgresSaverOptions } from "./saver.js";
export {
  PostgresCheckpointStorage,
  type PostgresCheckpointStorageOptions,
  PostgresSaverError,
} from "./saver-storage.js";
export {
  type DistanceMetric,
  type PostgresSearchMode,
  type PostgresSearchOptions,
  PostgresStore,
  type PostgresStoreConfig,
  PostgresStoreError,
  type PostgresStoreStats,
} from "./store.js";
