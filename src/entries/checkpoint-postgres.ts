/**
 * The `agentgraph/checkpoint/postgres` entry point: the Node set-up (async context for nodes, message serialization for
 * checkpoints), then the exports of the area, so `PostgresSaver` works without importing "agentgraph".
 *
 * @example
 * ```ts
 * import { PostgresSaver } from "agentgraph/checkpoint/postgres";
 * ```
 */
import "./node-setup.js";

// Listed one by one: the area's index also exports the saver's storage layer, for its tests.
export {
  type DistanceMetric,
  PostgresSaver,
  PostgresSaverError,
  type PostgresSaverOptions,
  type PostgresSearchMode,
  type PostgresSearchOptions,
  PostgresStore,
  type PostgresStoreConfig,
  PostgresStoreError,
  type PostgresStoreStats,
} from "../checkpoint/postgres/index.js";
// The store's types LangGraph.js's `@langchain/langgraph-checkpoint-postgres/store` exports too
export type {
  FilterOperators,
  PutOptions,
  SearchItem,
  SearchOptions,
  TTLConfig,
} from "../graph/index.js";
