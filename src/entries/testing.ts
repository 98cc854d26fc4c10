/**
 * The `agentgraph/testing` entry point: the Node set-up (async context for nodes, message serialization for
 * checkpoints), then the exports of the area, so `FakeChatModel` works without importing "agentgraph".
 *
 * @example
 * ```ts
 * import { FakeChatModel } from "agentgraph/testing";
 * ```
 */
import "./node-setup.js";

export * from "../testing/index.js";
