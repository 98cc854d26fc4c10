import type { StructuredToolInterface, ToolRunnableConfig } from "../tools/index.js";

const INVALID_TOOL_MSG_TEMPLATE =
  "{requestedToolName} is not a valid tool, try one of {availableToolNamesString}.";

/**
 * A tool to run and its input: what {@link ToolExecutor} takes (LangChain.js
 * `ToolInvocationInterface`, e.g. an `AgentAction`).
 *
 * @example
 * ```ts
 * const invocation: ToolInvocation = { tool: "search", toolInput: { query: "weather" } };
 * ```
 */
export interface ToolInvocation {
  tool: string;
  toolInput: unknown;
  log?: string;
}

/**
 * Options of {@link ToolExecutor}.
 *
 * @example
 * ```ts
 * const fields: ToolExecutorArgs = { tools: [search], invalidToolMsgTemplate: "No tool {requestedToolName}." };
 * ```
 */
export interface ToolExecutorArgs {
  tools: StructuredToolInterface[];
  /** The answer for an unknown tool; `{requestedToolName}` and `{availableToolNamesString}` are filled in. */
  invalidToolMsgTemplate?: string | undefined;
}

/**
 * Runs a tool by name (LangGraph.js's deprecated `ToolExecutor`; use `ToolNode`). `invoke({
 * tool, toolInput }, config)` returns the tool's result, or for an unknown tool the text
 * `<name> is not a valid tool, try one of <names>.`.
 *
 * @deprecated Use `ToolNode`.
 *
 * @example
 * ```ts
 * import { ToolExecutor } from "agentgraph/prebuilt";
 *
 * const executor = new ToolExecutor({ tools: [search] });
 * await executor.invoke({ tool: "search", toolInput: { query: "weather" } });
 * ```
 */
export class ToolExecutor {
  readonly lc_graph_name = "ToolExecutor";
  tools: StructuredToolInterface[];
  toolMap: Record<string, StructuredToolInterface>;
  invalidToolMsgTemplate: string;

  constructor(fields: ToolExecutorArgs) {
    this.tools = fields.tools;
    this.invalidToolMsgTemplate = fields.invalidToolMsgTemplate ?? INVALID_TOOL_MSG_TEMPLATE;
    this.toolMap = {};
    for (const tool of this.tools) this.toolMap[tool.name] = tool;
  }

  /** Runs `toolInvocation.tool` on `toolInvocation.toolInput`. */
  invoke(toolInvocation: ToolInvocation, config?: ToolRunnableConfig): Promise<unknown> {
    return this._execute(toolInvocation, config);
  }

  /** `invoke` on each invocation. */
  batch(inputs: ToolInvocation[], config?: ToolRunnableConfig): Promise<unknown[]> {
    return Promise.all(inputs.map((input) => this.invoke(input, config)));
  }

  async _execute(toolInvocation: ToolInvocation, config?: ToolRunnableConfig): Promise<unknown> {
    const tool = Object.hasOwn(this.toolMap, toolInvocation.tool)
      ? this.toolMap[toolInvocation.tool]
      : undefined;
    if (tool === undefined) {
      return this.invalidToolMsgTemplate
        .replace("{requestedToolName}", toolInvocation.tool)
        .replace("{availableToolNamesString}", Object.keys(this.toolMap).join(", "));
    }
    return tool.invoke(toolInvocation.toolInput, config);
  }
}
