/**
 * The `agentgraph/checkpoint/sqlite` entry point: the Node set-up (async context for nodes, message serialization for
 * checkpoints), then the exports of the area, so `SqliteSaver` works without importing "agentgraph".
 *
 * @example
 * ```ts
 * import { SqliteSaver } from "agentgraph/checkpoint/sqlite";
 * ```
 */
import "./node-setup.js";

// Listed one by one: the area's index also exports the saver's storage layer, for its tests.
export {
  SqliteSaver,
  SqliteSaverError,
  type SqliteSaverOptions,
  SqliteStore,
  SqliteStoreError,
  type SqliteStoreOptions,
} from "../checkpoint/sqlite/index.js";
