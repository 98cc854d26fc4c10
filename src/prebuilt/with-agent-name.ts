import type { AIMessage, BaseMessage } from "../messages/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import { addInlineAgentName, removeInlineAgentName } from "./create-react-agent-name.js";

/** What {@link withAgentName} wraps: a chat model (or anything that answers messages). */
export interface AgentNameModelLike {
  invoke(input: BaseMessage[], options?: Record<string, unknown>): Promise<BaseMessage>;
}

/**
 * How {@link withAgentName} shows agent names to the model; only `"inline"` (LangChain.js has
 * no other mode).
 *
 * @example
 * ```ts
 * const mode: AgentNameMode = "inline";
 * ```
 */
export type AgentNameMode = "inline";

/**
 * The model {@link withAgentName} returns (LangChain.js returns a `RunnableSequence`):
 * `invoke`, `batch` and `stream` (which yields the whole answer once).
 *
 * @example
 * ```ts
 * const named: AgentNameModel = withAgentName(model, "inline");
 * ```
 */
export class AgentNameModel {
  constructor(private readonly model: AgentNameModelLike) {}

  /** Inlines the names of earlier AI messages, calls the model, and takes the tags off its answer. */
  async invoke(messages: BaseMessage[], options?: Record<string, unknown>): Promise<AIMessage | BaseMessage> {
    if (!Array.isArray(messages)) {
      throw new InvalidArgumentError(
        "withAgentName(model).invoke expects an array of messages (it rewrites the AI messages' names).",
      );
    }
    const answer = await this.model.invoke(messages.map(addInlineAgentName), options);
    return removeInlineAgentName(answer);
  }

  /** `invoke` on each input. */
  batch(inputs: BaseMessage[][], options?: Record<string, unknown>): Promise<Array<AIMessage | BaseMessage>> {
    return Promise.all(inputs.map((input) => this.invoke(input, options)));
  }

  /** Yields the answer of `invoke` once. */
  async stream(
    messages: BaseMessage[],
    options?: Record<string, unknown>,
  ): Promise<AsyncGenerator<AIMessage | BaseMessage>> {
    const answer = await this.invoke(messages, options);
    return (async function* () {
      yield answer;
    })();
  }
}

/**
 * Shows agent names to a model that ignores the `name` field, as LangGraph.js's
 * `withAgentName` (deprecated there in favour of `langchain`): before each call, every AI
 * message with a `name` gets its text written as `<name>agent</name><content>…</content>`
 * (a message without text gets one such block) and loses its `name`; the tags are taken off
 * the model's answer again and the name goes back to `name`.
 *
 * @throws {InvalidArgumentError} for a mode other than `"inline"`.
 *
 * @example
 * ```ts
 * import { withAgentName } from "agentgraph/prebuilt";
 *
 * const named = withAgentName(model, "inline");
 * const answer = await named.invoke([new HumanMessage("hi"), new AIMessage({ content: "Hello", name: "greeter" })]);
 * // the model saw "<name>greeter</name><content>Hello</content>"
 * ```
 */
export function withAgentName(model: AgentNameModelLike, agentNameMode: AgentNameMode): AgentNameModel {
  if (agentNameMode !== "inline") {
    throw new InvalidArgumentError(
      `Invalid agent name mode: ${String(agentNameMode)}. Needs to be one of: "inline"`,
    );
  }
  return new AgentNameModel(model);
}
