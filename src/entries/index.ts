export { registerMessageSerialization } from "./messages-serialization.js";
export { nodeSetUp } from "./node-setup.js";
