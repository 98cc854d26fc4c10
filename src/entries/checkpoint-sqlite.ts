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

export * from "../checkpoint/sqlite/index.js";
