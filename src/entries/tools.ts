/**
 * The `agentgraph/tools` entry point (mirrors `@langchain/core/tools`): the public names of the tools area, listed one
 * by one. The area's index also exports helpers other areas share (tool output formatting, argument validation, tool definitions for providers), which are not part of the API.
 *
 * @example
 * ```ts
 * import { tool } from "agentgraph/tools";
 * ```
 */

export type {
  BaseDynamicToolInput,
  BindToolsInput,
  ClientTool,
  CommandLike,
  ContentAndArtifact,
  DynamicStructuredToolInput,
  DynamicToolInput,
  InferSchemaInput,
  InferSchemaOutput,
  JsonSchema,
  OpenAIFunctionTool,
  ProviderToolDescriptor,
  ResponseFormat,
  ServerTool,
  StandardIssue,
  StandardResult,
  StandardSchemaLike,
  StructuredToolInterface,
  StructuredToolParams,
  ToolCallOutput,
  ToolConfigFunction,
  ToolDefinition,
  ToolDescriptor,
  ToolFields,
  ToolFunction,
  ToolInterface,
  ToolParams,
  ToolReturnType,
  ToolRunnableConfig,
  ToolRuntime,
  ToolSchema,
  ToolSchemaBase,
  ToolSchemaInput,
  ToolSchemaOutput,
  ToolStore,
  ToolStoreItem,
  ToolWrapperParams,
} from "../tools/index.js";
export {
  BaseToolkit,
  convertToOpenAITool,
  DynamicStructuredTool,
  DynamicTool,
  isDirectToolOutput,
  isLangChainTool,
  isRunnableToolLike,
  isStructuredTool,
  isStructuredToolParams,
  mapJsonSchema,
  StructuredTool,
  Tool,
  ToolInputParsingException,
  ToolOutputFormatError,
  ToolRunManager,
  toJsonSchema,
  tool,
  toStrictJsonSchema,
} from "../tools/index.js";
