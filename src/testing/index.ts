export { FakeChatModel, FakeChatModelExhaustedError, type FakeChatModelFields } from "./fake-chat-model.js";
