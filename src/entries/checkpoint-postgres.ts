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

export * from "../checkpoint/postgres/index.js";
