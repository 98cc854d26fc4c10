import {
  Annotation,
  type AnnotationRoot,
  type BinaryOperatorAggregate,
  type LastValue,
} from "../graph/index.js";
import { type BaseMessage, type Messages, messagesStateReducer } from "../messages/index.js";

/** The state definition of {@link createReactAgentAnnotation}. */
export type ReactAgentStateDefinition = {
  messages: BinaryOperatorAggregate<BaseMessage[], Messages>;
  structuredResponse: LastValue<Record<string, unknown>>;
};

/**
 * The state of a `createReactAgent` agent with its default schema, as a type (LangGraph.js's
 * `AgentState`): its messages and the structured answer of `responseFormat`.
 */
export interface AgentState<StructuredResponse extends Record<string, unknown> = Record<string, unknown>> {
  messages: BaseMessage[];
  structuredResponse: StructuredResponse;
}

/**
 * The default state of `createReactAgent`: `messages` (merged by `messagesStateReducer`) and
 * `structuredResponse` (the answer of `responseFormat`, when one is set). Extend it to give
 * the agent more state:
 *
 * @example
 * ```ts
 * const State = Annotation.Root({
 *   ...createReactAgentAnnotation().spec,
 *   userName: Annotation<string>,
 * });
 * const agent = createReactAgent({ llm: model, tools: [], stateSchema: State });
 * ```
 */
export function createReactAgentAnnotation(): AnnotationRoot<ReactAgentStateDefinition> {
  return Annotation.Root({
    messages: Annotation<BaseMessage[], Messages>({ reducer: messagesStateReducer, default: () => [] }),
    structuredResponse: Annotation<Record<string, unknown>>(),
  });
}

/**
 * The channel `llmInputMessages` that a `preModelHook` may write: the messages the model sees
 * on this call instead of `messages` (each write replaces the previous list).
 */
export function llmInputMessagesChannel(): BinaryOperatorAggregate<BaseMessage[], Messages> {
  return Annotation<BaseMessage[], Messages>({ reducer: replaceMessages, default: () => [] });
}

/** The reducer of `llmInputMessages`: the update, merged into nothing. */
function replaceMessages(_previous: BaseMessage[], update: Messages): BaseMessage[] {
  return messagesStateReducer([], update);
}
// it gives the update's messages their ids in place, as `messagesStateReducer` does (the engine
// gives them those ids before streaming the hook's update)
Object.defineProperty(replaceMessages, Symbol.for("agentgraph.reducer.stamps_message_ids"), { value: true });
