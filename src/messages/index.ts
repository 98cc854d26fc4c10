export type { AIMessageChunkFields, AIMessageFields } from "./ai.js";
export { AIMessage, AIMessageChunk, isAIMessage, isAIMessageChunk } from "./ai.js";
export type {
  AdditionalKwargs,
  BaseMessageFields,
  FunctionCall,
  MessageType,
  ResponseMetadata,
  SerializedMessage,
  StoredMessage,
  StoredMessageData,
} from "./base.js";
export {
  BaseMessage,
  BaseMessageChunk,
  isBaseMessage,
  isBaseMessageChunk,
  storedMessageFields,
} from "./base.js";
export { getBufferString } from "./buffer-string.js";
export type { ChatMessageFields } from "./chat.js";
export { ChatMessage, ChatMessageChunk, isChatMessage, isChatMessageChunk } from "./chat.js";
export type {
  BaseMessageLike,
  MessageFieldWithRole,
  MessageFieldWithType,
  MessageLike,
  MessageLikeTuple,
  MessageObjectFields,
} from "./coerce.js";
export { _isMessageFieldWithRole, coerceMessageLikeToMessage } from "./coerce.js";
export { concat } from "./concat.js";
export type {
  ContentBlock,
  ImageContentBlock,
  ImageDetail,
  ImageUrlContentBlock,
  MessageContent,
  ReasoningContentBlock,
  TextContentBlock,
  ThinkingContentBlock,
  ToolCallContentBlock,
  ToolUseContentBlock,
} from "./content.js";
export { KNOWN_BLOCK_TYPES } from "./content.js";
export { chunkToMessage, convertToChunk, isMessage } from "./convert.js";
export type { Data, ProviderFormatTypes, StandardContentBlockConverter } from "./data-blocks.js";
export {
  convertToOpenAIImageBlock,
  convertToProviderContentBlock,
  isBase64ContentBlock,
  isDataContentBlock,
  isIDContentBlock,
  isPlainTextContentBlock,
  isURLContentBlock,
  parseBase64DataUrl,
  parseMimeType,
} from "./data-blocks.js";
export {
  MessageCoercionError,
  MessageMergeError,
  MessageRemovalError,
  MessageSerializationError,
} from "./errors.js";
export type { FilterMessagesOptions } from "./filter.js";
export { filterMessages } from "./filter.js";
export type { FunctionMessageFields } from "./function.js";
export {
  FunctionMessage,
  FunctionMessageChunk,
  isFunctionMessage,
  isFunctionMessageChunk,
} from "./function.js";
export { HumanMessage, HumanMessageChunk, isHumanMessage, isHumanMessageChunk } from "./human.js";
export { iife } from "./iife.js";
export type { MergeDictsOptions } from "./merge.js";
export {
  _mergeDicts,
  _mergeLists,
  _mergeObj,
  DEFAULT_MERGE_IGNORE_KEYS,
  mergeContent,
  mergeResponseMetadata,
  mergeStatus as _mergeStatus,
} from "./merge.js";
export { mergeMessageRuns } from "./merge-runs.js";
export type { MessageChunkUnion, MessageTypeOrClass, MessageUnion } from "./message-types.js";
export type { NotificationMetadata } from "./notification.js";
export { addNotificationMetadata, getNotificationMetadata } from "./notification.js";
export { parsePartialJson } from "./partial-json.js";
export type { Messages } from "./reducer.js";
export { addMessages, isMergedMessageList, MessagesZodMeta, messagesStateReducer } from "./reducer.js";
export type { RemoveMessageFields } from "./remove.js";
export { isRemoveMessage, REMOVE_ALL_MESSAGES, RemoveMessage } from "./remove.js";
export type { SerializableMessageClassName } from "./revive.js";
export {
  isSerializedMessage,
  MESSAGE_SERIALIZATION_IDS,
  MESSAGE_SERIALIZATION_NAMESPACES,
  messageFromJSON,
  reviveMessage,
} from "./revive.js";
export {
  type LegacyStoredMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
  mapStoredMessageToChatMessage,
} from "./stored.js";
export { isSystemMessage, isSystemMessageChunk, SystemMessage, SystemMessageChunk } from "./system.js";
export type { ToolMessageFields } from "./tool.js";
export {
  type DirectToolOutput,
  isDirectToolOutput,
  isToolMessage,
  isToolMessageChunk,
  ToolMessage,
  ToolMessageChunk,
} from "./tool.js";
export type { InvalidToolCall, OpenAIToolCall, ToolCall, ToolCallChunk } from "./tool-calls.js";
export { collapseToolCallChunks, defaultToolCallParser, isOpenAIToolCallArray } from "./tool-calls.js";
export type { MessagesTransformer, TextSplitter, TokenCounter, TrimMessagesOptions } from "./trim.js";
export { defaultTextSplitter, trimMessages } from "./trim.js";
export type { InputTokenDetails, ModalityTokenDetails, OutputTokenDetails, UsageMetadata } from "./usage.js";
export { mergeUsageMetadata } from "./usage.js";
