export { PostgresSaver, type PostgresSaverOptions } from "./saver.js";
export {
  PostgresCheckpointStorage,
  type PostgresCheckpointStorageOptions,
  PostgresSaverError,
} from "./saver-storage.js";
export { PostgresStore, type PostgresStoreConfig } from "./store.js";
