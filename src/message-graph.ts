import {
  CompiledStateGraph,
  type CompiledStateGraphNode,
  type CompileOptions,
  type EdgeSource,
  isCommand,
  type PathMap,
  type Router,
  START,
  StateGraph,
  type StreamTransformerFactory,
} from "./graph/index.js";
import { type BaseMessage, type Messages, messagesStateReducer } from "./messages/index.js";

/** The one channel of a `MessageGraph`: the message list itself. */
const ROOT = "__root__";

/** A node's output as a write of the root channel (a `Command` is left as it is). */
function toRootUpdate(output: unknown): unknown {
  if (output === null || output === undefined || isCommand(output)) return output;
  return { [ROOT]: output };
}

/** A compiled node reading the message list itself and writing what it returns to it. */
function rootNode(node: CompiledStateGraphNode): CompiledStateGraphNode {
  const writers = node.writers;
  const isStart = node.name === START;
  return {
    ...node,
    channels: isStart ? node.channels : [ROOT],
    bound: isStart ? (input: unknown) => input : node.bound,
    writers: writers === undefined ? undefined : (output, task) => writers(toRootUpdate(output), task),
  };
}

/** A compiled {@link MessageGraph}: its input, output and values are the message list. */
type CompiledMessageGraph<Transformers extends ReadonlyArray<StreamTransformerFactory> = []> =
  CompiledStateGraph<
    BaseMessage[],
    Messages,
    typeof START,
    Record<string, unknown>,
    Messages,
    BaseMessage[],
    Transformers
  >;

/**
 * @deprecated As in LangGraph.js: prefer `new StateGraph(MessagesAnnotation)`.
 *
 * A graph whose state is a list of messages (LangGraph.js `MessageGraph`): nodes receive the list
 * and return a message or a list of messages, merged in with `messagesStateReducer` (appended, or
 * replacing the message with the same id). Routing functions receive the list too.
 *
 * @example
 * ```ts
 * const graph = new MessageGraph()
 *   .addNode("reply", (messages) => new AIMessage(`${messages.length} so far`))
 *   .addEdge(START, "reply")
 *   .addEdge("reply", END)
 *   .compile();
 * await graph.invoke([new HumanMessage("hi")]); // [HumanMessage, AIMessage]
 * ```
 */
export class MessageGraph extends StateGraph<unknown, BaseMessage[], Messages> {
  constructor() {
    super({ channels: { [ROOT]: { reducer: messagesStateReducer, default: () => [] } } });
  }

  override addConditionalEdges(
    source: EdgeSource<typeof START>,
    path: Router<BaseMessage[], typeof START>,
    pathMap?: PathMap<typeof START>,
  ): this;
  override addConditionalEdges(args: {
    source: EdgeSource<typeof START>;
    path: Router<BaseMessage[], typeof START>;
    pathMap?: PathMap<typeof START>;
  }): this;
  override addConditionalEdges(first: unknown, path?: unknown, pathMap?: unknown): this {
    const unwrap =
      (router: unknown) =>
      (state: Record<string, unknown>, config: unknown): unknown =>
        typeof router === "function" ? router(state[ROOT], config) : router;
    const add = StateGraph.prototype.addConditionalEdges as (this: unknown, ...a: unknown[]) => unknown;
    if (typeof first === "object" && first !== null) {
      const options = first as { path: unknown };
      add.call(this, {
        ...options,
        path: typeof options.path === "function" ? unwrap(options.path) : options.path,
      });
    } else {
      add.call(this, first, typeof path === "function" ? unwrap(path) : path, pathMap);
    }
    return this;
  }

  /** Checks the graph and builds the runnable graph: its input, output and values are the message list. */
  override compile<const Transformers extends ReadonlyArray<StreamTransformerFactory> = []>(
    options: CompileOptions<typeof START, Transformers> = {},
  ): CompiledMessageGraph<Transformers> {
    const compiled = super.compile(options);
    const nodes: Record<string, CompiledStateGraphNode> = {};
    for (const [name, node] of Object.entries(compiled.nodes)) nodes[name] = rootNode(node);
    return new CompiledStateGraph({
      builder: compiled.builder,
      nodes,
      channels: compiled.channels,
      inputChannels: START,
      outputChannels: ROOT,
      streamChannels: ROOT,
      stateKeys: [ROOT],
      streamMode: "updates",
      ...(compiled.name === undefined ? {} : { name: compiled.name }),
      ...(compiled.contextSchema === undefined ? {} : { contextSchema: compiled.contextSchema }),
      compileOptions: options,
    }) as CompiledMessageGraph<Transformers>;
  }
}
