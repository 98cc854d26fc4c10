export { nodeSetUp } from "./node-setup.js";
