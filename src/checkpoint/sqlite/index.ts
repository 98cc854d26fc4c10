export { SqliteStore, type SqliteStoreOptions } from "./store.js";
