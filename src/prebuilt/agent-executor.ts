import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from "../graph/index.js";
import { AgentGraphError } from "../shared/index.js";
import type { StructuredToolInterface, ToolRunnableConfig } from "../tools/index.js";
import { ToolExecutor, type ToolInvocation } from "./tool-executor.js";

/**
 * A step the agent asked for (LangChain.js `AgentAction`).
 *
 * @example
 * ```ts
 * const action: AgentAction = { tool: "search", toolInput: "weather", log: "" };
 * ```
 */
export interface AgentAction extends ToolInvocation {
  log: string;
}

/**
 * The agent's final answer (LangChain.js `AgentFinish`).
 *
 * @example
 * ```ts
 * const finish: AgentFinish = { returnValues: { output: "Sunny." }, log: "" };
 * ```
 */
export interface AgentFinish {
  returnValues: Record<string, unknown>;
  log: string;
}

/** One executed step: the action and what the tool returned. */
export interface AgentStep {
  action: AgentAction;
  observation: unknown;
}

/** The state of {@link createAgentExecutor}'s graph. */
export interface AgentExecutorState {
  input: unknown;
  agentOutcome?: AgentAction | AgentFinish | undefined;
  steps: AgentStep[];
}

/** What {@link createAgentExecutor} runs: anything whose `invoke(state, config)` returns an action or a finish. */
export interface AgentRunnableLike {
  invoke(
    state: AgentExecutorState,
    config?: LangGraphRunnableConfig,
  ): Promise<AgentAction | AgentFinish> | AgentAction | AgentFinish;
}

/**
 * The `action` node ran before the agent produced an action.
 *
 * @example
 * ```ts
 * await expect(graph.invoke({ input: "x", agentOutcome: undefined })).rejects.toThrow(AgentExecutorError);
 * ```
 */
export class AgentExecutorError extends AgentGraphError {
  static override readonly brandName: string = "AgentExecutorError";
}

const State = Annotation.Root({
  input: Annotation<unknown>(),
  agentOutcome: Annotation<AgentAction | AgentFinish | undefined>(),
  steps: Annotation<AgentStep[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/**
 * The legacy agent loop (LangGraph.js's deprecated `createAgentExecutor`): node `agent` runs
 * `agentRunnable` on the state and stores its answer in `agentOutcome`; an answer with
 * `returnValues` ends the run, any other is a tool action that node `action` runs with a
 * {@link ToolExecutor} (or the one given as `tools`), appending `{ action, observation }` to
 * `steps` before going back to `agent`.
 *
 * @deprecated Use `createAgent` or `createReactAgent`.
 *
 * @example
 * ```ts
 * import { createAgentExecutor } from "agentgraph/prebuilt";
 *
 * const executor = createAgentExecutor({ agentRunnable, tools: [search] });
 * const result = await executor.invoke({ input: "What is the weather?" });
 * result.agentOutcome; // { returnValues: { output: "…" }, log: "…" }
 * ```
 */
export function createAgentExecutor({
  agentRunnable,
  tools,
}: {
  agentRunnable: AgentRunnableLike;
  tools: StructuredToolInterface[] | ToolExecutor;
}) {
  const executor = Array.isArray(tools) ? new ToolExecutor({ tools }) : tools;
  const isFinish = (outcome: unknown): outcome is AgentFinish =>
    typeof outcome === "object" && outcome !== null && "returnValues" in outcome;
  return new StateGraph(State)
    .addNode("agent", async (state: typeof State.State, config: LangGraphRunnableConfig) => ({
      agentOutcome: await agentRunnable.invoke(state as AgentExecutorState, config),
    }))
    .addNode("action", async (state: typeof State.State, config: LangGraphRunnableConfig) => {
      const action = state.agentOutcome;
      if (action === undefined || isFinish(action)) {
        throw new AgentExecutorError(
          "Agent has not been run yet: the action node needs an AgentAction in agentOutcome (run the agent node first).",
        );
      }
      return {
        steps: [{ action, observation: await executor.invoke(action, config as ToolRunnableConfig) }],
      };
    })
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (state) => (isFinish(state.agentOutcome) ? "end" : "continue"), {
      continue: "action",
      end: END,
    })
    .addEdge("action", "agent")
    .compile();
}
