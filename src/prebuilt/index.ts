export {
  type AgentAction,
  AgentExecutorError,
  type AgentExecutorState,
  type AgentFinish,
  type AgentRunnableLike,
  type AgentStep,
  createAgentExecutor,
} from "./agent-executor.js";
export {
  type CreateReactAgentParams,
  createReactAgent,
  type DynamicReactAgentModel,
  type ReactAgent,
  type ReactAgentHook,
  type ReactAgentNodeName,
  type ReactAgentResponseFormat,
  type ReactAgentStateView,
} from "./create-react-agent.js";
export {
  type AgentState,
  createReactAgentAnnotation,
  type ReactAgentStateDefinition,
} from "./create-react-agent-annotation.js";
export type {
  ReactAgentChatModel,
  ReactAgentMessageModifier,
  ReactAgentPrompt,
  ReactAgentRunnable,
} from "./create-react-agent-model.js";
export { InvalidChatHistoryError, NEED_MORE_STEPS } from "./create-react-agent-steps.js";
export type {
  ActionRequest,
  HumanInterrupt,
  HumanInterruptConfig,
  HumanResponse,
} from "./human-interrupt.js";
export { ToolExecutor, type ToolExecutorArgs, type ToolInvocation } from "./tool-executor.js";
export {
  SHOWS_SEND_PAYLOAD,
  ToolNode,
  type ToolNodeOptions,
  type ToolNodeOutput,
  type ToolNodeStateOutput,
} from "./tool-node.js";
export {
  type HandleToolErrors,
  type ToolNodeErrorHandler,
  ToolNotFoundError,
} from "./tool-node-errors.js";
export type { ToolNodeInput } from "./tool-node-input.js";
export {
  chainWrapToolCall,
  type ToolCallHandler,
  type ToolCallRequest,
  type ToolCallResult,
  type WrapToolCall,
} from "./tool-node-wrap.js";
export { toolsCondition } from "./tools-condition.js";
export {
  type AgentNameMode,
  AgentNameModel,
  type AgentNameModelLike,
  withAgentName,
} from "./with-agent-name.js";
