/**
 * The `agentgraph/agents` entry point: the Node set-up (async context for nodes, message serialization for
 * checkpoints), then the exports of the area, so `createAgent` works without importing "agentgraph".
 *
 * @example
 * ```ts
 * import { createAgent } from "agentgraph/agents";
 * ```
 */
import "./node-setup.js";

export * from "../agents/index.js";
