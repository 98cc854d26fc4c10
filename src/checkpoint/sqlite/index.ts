export { SqliteSaver, type SqliteSaverOptions } from "./saver.js";
export { SqliteCheckpointStorage, SqliteSaverError } from "./saver-storage.js";
export { SqliteStore, SqliteStoreError, type SqliteStoreOptions } from "./store.js";
