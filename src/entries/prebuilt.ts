/**
 * The `agentgraph/prebuilt` entry point: the Node set-up (async context for nodes, message serialization for
 * checkpoints), then the exports of the area, so `ToolNode` works without importing "agentgraph".
 *
 * @example
 * ```ts
 * import { ToolNode } from "agentgraph/prebuilt";
 * ```
 */
import "./node-setup.js";

export * from "../prebuilt/index.js";
