export { ToolInputParsingException, ToolOutputFormatError } from "./errors.js";
export {
  formatToolOutput,
  isCommandLike,
  isDirectToolOutput,
  type ToolOutputContext,
  toMessageContent,
} from "./format-tool-output.js";
export { formatIssues, formatPath, type PrintableIssue } from "./schema/format-issues.js";
export { type JsonSchemaIssue, validateJsonSchema } from "./schema/json-schema-validator.js";
export {
  type InferSchemaInput,
  type InferSchemaOutput,
  isStandardSchema,
  isZodSchema,
  type JsonSchema,
  type StandardIssue,
  type StandardResult,
  type StandardSchemaLike,
} from "./schema/standard-schema.js";
export { mapJsonSchema, toJsonSchema, toStrictJsonSchema } from "./schema/to-json-schema.js";
export { type ArgsValidation, validateArgs } from "./schema/validate-args.js";
export { isZod3Schema } from "./schema/zod3-def-to-json-schema.js";
export {
  type CommandLike,
  type ContentAndArtifact,
  isLangChainTool,
  isRunnableToolLike,
  isStructuredTool,
  isStructuredToolParams,
  isToolCall,
  StructuredTool,
  type StructuredToolInterface,
  type StructuredToolParams,
  type ToolCallOutput,
  type ToolInterface,
  type ToolParams,
  type ToolReturnType,
  type ToolSchema,
  type ToolSchemaBase,
  type ToolSchemaInput,
  type ToolSchemaOutput,
} from "./structured-tool.js";
export {
  type BaseDynamicToolInput,
  type ClientTool,
  DynamicStructuredTool,
  type DynamicStructuredToolInput,
  DynamicTool,
  type DynamicToolInput,
  type ServerTool,
  Tool,
  type ToolConfigFunction,
  type ToolFields,
  type ToolFunction,
  type ToolWrapperParams,
  tool,
} from "./tool.js";
export { ToolRunManager } from "./tool-callbacks.js";
export {
  type BindToolsInput,
  convertToOpenAITool,
  isProviderTool,
  type OpenAIFunctionTool,
  type ProviderToolDescriptor,
  type ToolDefinition,
  type ToolDescriptor,
  toToolDefinition,
} from "./tool-definition.js";
export { buildToolRuntime } from "./tool-runtime.js";
export { BaseToolkit } from "./toolkit.js";
export type {
  ResponseFormat,
  ToolRunnableConfig,
  ToolRuntime,
  ToolStore,
  ToolStoreItem,
} from "./types.js";
