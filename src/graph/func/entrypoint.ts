import { getAsyncContext, hasHandlers, randomId } from "../../shared/index.js";
import { DrawableGraph, type StreamChunk } from "../builder/index.js";
import { type BaseChannel, EphemeralValue, LastValue, Topic } from "../channels/index.js";
import {
  type Command,
  coerceTimeoutPolicy,
  END,
  GraphValueError,
  PREVIOUS,
  START,
  TASKS,
  type TimeoutPolicy,
} from "../core/index.js";
import {
  type LangGraphRunnableConfig,
  PREVIOUS_STATE,
  type PregelNode,
  type TaskAttemptHooks,
  taskAttemptHooks,
} from "../loop/index.js";
import { Pregel, type PregelOptions } from "../pregel/index.js";
import type { IterableReadableStream, StreamMode } from "../stream/index.js";
import { isGeneratorFunction } from "./task.js";

/** Options of {@link entrypoint}. */
export interface EntrypointOptions {
  name: string;
  /** Saves the run (makes it resumable after `interrupt()` and gives `getPreviousState()`). */
  checkpointer?: unknown;
  /** Long-term store passed to the function as `config.store`. */
  store?: unknown;
  /** Cache for cached tasks. */
  cache?: unknown;
  /**
   * Longest one attempt of the entrypoint's function may run: milliseconds (a wall-clock cap) or
   * a `TimeoutPolicy` (`runTimeout`, `idleTimeout`); past it the run fails with a
   * `NodeTimeoutError`, as a node's `timeout` does.
   */
  timeout?: number | TimeoutPolicy;
}

/**
 * What `entrypoint.final({ value, save })` returns: `value` is the result, `save` what the next
 * run sees as previous state. It is a plain object marked with `__lg_type`, as LangGraph.js's is
 * (an entrypoint that returns such an object returns `value` and saves `save`).
 */
export interface EntrypointFinal<Value, Save> {
  readonly value: Value;
  readonly save: Save;
  readonly __lg_type: "__pregel_final";
}

/** The entrypoint function. */
export type EntrypointFunction<Input, Output> = (
  input: Input,
  config: LangGraphRunnableConfig,
) => Output | Promise<Output>;

type Unwrap<Output> = Output extends EntrypointFinal<infer V, unknown> ? V : Output;

/**
 * The graph {@link entrypoint} returns. Its `stream()` chunks are typed by the `streamMode`, as
 * LangGraph.js types them: `values` is what the function returns, `updates` (the default)
 * `{ [entrypoint or task name]: value }`, a list of modes gives `[mode, payload]` pairs.
 */
export interface EntrypointGraph<Input, Output> extends Pregel<Input | Command, Output> {
  stream(
    input: Input | Command | null,
    options: PregelOptions & { encoding: "text/event-stream" },
  ): Promise<IterableReadableStream<Uint8Array>>;
  stream<
    const M extends StreamMode | readonly StreamMode[] = "updates",
    const Subgraphs extends boolean = false,
  >(
    input: Input | Command | null,
    options?: PregelOptions<Record<string, unknown>, M> & { streamMode?: M; subgraphs?: Subgraphs },
  ): Promise<IterableReadableStream<StreamChunk<M, Subgraphs, Output, unknown, string>>>;
  /** The entrypoint's structure, for drawing: `<name>Input → <name> → <name>Output`. */
  getGraph(): DrawableGraph;
  /** {@link getGraph}, as a promise (LangGraph.js's `getGraphAsync`). */
  getGraphAsync(): Promise<DrawableGraph>;
}

interface EntrypointFactory {
  <Input, Output>(
    nameOrOptions: string | EntrypointOptions,
    fn: EntrypointFunction<Input, Output>,
  ): EntrypointGraph<Input, Unwrap<Awaited<Output>>>;
  /** Returns `value` to the caller and keeps `save` as the state the next run of the thread sees. */
  final<Value, Save>(args: { value?: Value; save?: Save }): EntrypointFinal<Value, Save>;
}

/**
 * Tells chain callbacks of the two runs that take an entrypoint's result apart, as LangGraph.js
 * reports them: `pluckReturnValue` (what the call returns) and `pluckSaveValue` (what is saved).
 */
function reportPlucks(hooks: TaskAttemptHooks, output: unknown): void {
  const final = isFinal(output);
  hooks.innerRunStarted("pluckReturnValue", output).end(final ? output.value : output);
  hooks.innerRunStarted("pluckSaveValue", output).end(final ? output.save : output);
}

function isFinal(value: unknown): value is EntrypointFinal<unknown, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>).__lg_type === "__pregel_final"
  );
}

/**
 * Turns a function into a graph (functional API): it runs as one node, may call `task()`s,
 * `interrupt()` (with a checkpointer) and read `getPreviousState()`. Supports `invoke`,
 * `stream` and the other methods of a compiled graph.
 *
 * @example
 * ```ts
 * const double = task("double", (x: number) => x * 2);
 * const workflow = entrypoint("workflow", async (x: number) => (await double(x)) + 1);
 * await workflow.invoke(20); // 41
 * ```
 */
export const entrypoint: EntrypointFactory = Object.assign(
  <Input, Output>(nameOrOptions: string | EntrypointOptions, fn: EntrypointFunction<Input, Output>) => {
    const options: EntrypointOptions =
      typeof nameOrOptions === "string" ? { name: nameOrOptions } : nameOrOptions;
    if (typeof fn !== "function")
      throw new GraphValueError(`entrypoint("${options.name}", fn) needs a function.`);
    if (isGeneratorFunction(fn)) {
      throw new GraphValueError(
        'Generators are disallowed as entrypoints. For streaming responses, use config.write. (Call config.writer(chunk), or getWriter(), and read the chunks with streamMode: "custom".)',
      );
    }
    const node: PregelNode = {
      name: options.name,
      triggers: [START],
      channels: [START],
      bound: (input, config) => fn(input as Input, config as LangGraphRunnableConfig),
      writers: (output, task) => {
        // chain callbacks hear the hidden runs that split the result (as in LangGraph.js), unless
        // a failed call has failed the step already (there the run ends before the function does)
        if (!task.abortedBySibling && hasHandlers(task.config.callbacks)) {
          const hooks = taskAttemptHooks(task);
          if (hooks !== undefined) reportPlucks(hooks, output);
        }
        if (isFinal(output)) {
          task.writes.push([END, output.value], [PREVIOUS, output.save]);
        } else {
          task.writes.push([END, output], [PREVIOUS, output]);
        }
      },
      retryPolicy: undefined,
      cachePolicy: undefined,
      timeout: coerceTimeoutPolicy(options.timeout),
      metadata: undefined,
      tags: undefined,
      hidden: false,
      subgraphs: undefined,
    };
    const channels: Record<string, BaseChannel> = {
      [START]: new EphemeralValue(),
      [END]: new LastValue(),
      [PREVIOUS]: new LastValue(),
      [TASKS]: new Topic({ accumulate: false }),
    };
    const graph = new Pregel<Input | Command, Unwrap<Awaited<Output>>>({
      nodes: { [options.name]: node },
      channels,
      inputChannels: START,
      outputChannels: END,
      streamChannels: END,
      streamMode: "updates",
      name: options.name,
    });
    const name = options.name;
    return Object.assign(graph, {
      checkpointer: options.checkpointer,
      store: options.store,
      cache: options.cache,
      /**
       * The entrypoint's structure, for drawing: `<name>Input → <name> → <name>Output`, drawn as
       * LangChain.js draws a runnable (nodes identified by UUIDs, which `drawMermaid()` shows by
       * name and `toJSON()` numbers).
       */
      getGraph(): DrawableGraph {
        const drawable = new DrawableGraph();
        const schema = (title: string) => ({ $schema: "http://json-schema.org/draft-07/schema#", title });
        const input = drawable.addNode(randomId(), undefined, undefined, `${name}Input`);
        input.schema = schema(input.name);
        // a runnable is drawn by its name less a leading "Runnable", as LangChain.js draws it
        const self = drawable.addNode(
          randomId(),
          undefined,
          { id: ["langgraph", "pregel", "LangGraph"], name },
          name.startsWith("Runnable") ? name.slice("Runnable".length) : name,
        );
        const output = drawable.addNode(randomId(), undefined, undefined, `${name}Output`);
        output.schema = schema(output.name);
        drawable.addEdge(input.id, self.id);
        drawable.addEdge(self.id, output.id);
        return drawable;
      },
      /** {@link getGraph}, as a promise (LangGraph.js's `getGraphAsync`). */
      async getGraphAsync(): Promise<DrawableGraph> {
        return this.getGraph();
      },
    });
  },
  {
    final<Value, Save>(args: { value?: Value; save?: Save }): EntrypointFinal<Value, Save> {
      return { value: args.value as Value, save: args.save as Save, __lg_type: "__pregel_final" };
    },
  },
);

/**
 * Inside an entrypoint: what the previous run on this thread returned (or saved with
 * `entrypoint.final`), or `undefined` on the first run.
 */
export function getPreviousState<State>(): State | undefined {
  const config = getAsyncContext<LangGraphRunnableConfig<unknown>>();
  if (config === undefined) {
    throw new GraphValueError("getPreviousState() was called outside of an entrypoint.");
  }
  return (config as Record<symbol, unknown>)[PREVIOUS_STATE] as State | undefined;
}
