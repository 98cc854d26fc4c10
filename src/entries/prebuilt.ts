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

// The area's names listed one by one: its index also exports what createAgent shares with
// ToolNode and createReactAgent, which is not part of the API.
export type {
  ActionRequest,
  AgentAction,
  AgentExecutorState,
  AgentFinish,
  AgentNameMode,
  AgentNameModelLike,
  AgentRunnableLike,
  AgentState,
  AgentStep,
  CreateReactAgentParams,
  DynamicReactAgentModel,
  HandleToolErrors,
  HumanInterrupt,
  HumanInterruptConfig,
  HumanResponse,
  ReactAgent,
  ReactAgentChatModel,
  ReactAgentHook,
  ReactAgentMessageModifier,
  ReactAgentNodeName,
  ReactAgentPrompt,
  ReactAgentResponseFormat,
  ReactAgentRunnable,
  ReactAgentStateDefinition,
  ReactAgentStateView,
  ToolCallHandler,
  ToolCallRequest,
  ToolCallResult,
  ToolExecutorArgs,
  ToolInvocation,
  /** LangGraph.js's name for what `ToolExecutor.invoke` takes. */
  ToolInvocation as ToolInvocationInterface,
  ToolNodeErrorHandler,
  ToolNodeInput,
  ToolNodeOptions,
  ToolNodeOutput,
  WrapToolCall,
} from "../prebuilt/index.js";
export {
  AgentExecutorError,
  AgentNameModel,
  chainWrapToolCall,
  createAgentExecutor,
  createReactAgent,
  createReactAgentAnnotation,
  InvalidChatHistoryError,
  ToolExecutor,
  ToolNode,
  ToolNotFoundError,
  toolsCondition,
  withAgentName,
} from "../prebuilt/index.js";
