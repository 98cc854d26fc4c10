export { PostgresStore, type PostgresStoreConfig } from "./store.js";
