export { lazyMessagesZodState } from "./messages-zod-state.js";
export { nodeSetUp } from "./node-setup.js";
