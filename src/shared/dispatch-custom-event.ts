import { hasHandlers, notifyHandlers, parentRunIdOf } from "./callbacks.js";
import { type RunnableConfig, resolveConfig } from "./runnable-config.js";

/**
 * Reports a custom event from inside a run, as LangChain.js's `dispatchCustomEvent`
 * (`@langchain/core/callbacks/dispatch`) does: the handlers of the run it is called in (a graph
 * node's, a tool's) hear `handleCustomEvent(name, payload, runId, tags, metadata)` with that run's
 * id, and a graph's `streamEvents` shows it as an `on_custom_event` named `name`, with `payload`
 * as its `data` and the tags and metadata of that run. `config` defaults to the ambient one (a
 * node's or a tool's config can also be passed explicitly, as with LangChain.js's `/web` entry).
 * Outside a run, or in a run nobody listens to, it does nothing.
 *
 * @example
 * ```ts
 * import { dispatchCustomEvent, MessagesAnnotation, StateGraph } from "agentgraph";
 *
 * const graph = new StateGraph(MessagesAnnotation)
 *   .addNode("work", async () => {
 *     await dispatchCustomEvent("progress", { done: 1, of: 2 });
 *     return {};
 *   })
 *   .addEdge("__start__", "work")
 *   .compile();
 * for await (const event of graph.streamEvents({ messages: [] }, { version: "v2" })) {
 *   if (event.event === "on_custom_event") console.log(event.name, event.data);
 * }
 * ```
 */
export async function dispatchCustomEvent(
  name: string,
  payload: unknown,
  config?: RunnableConfig,
): Promise<void> {
  const used = resolveConfig(config);
  if (!hasHandlers(used.callbacks)) return;
  const runId = parentRunIdOf(used);
  if (runId === undefined) return;
  notifyHandlers(
    used.callbacks,
    "handleCustomEvent",
    name,
    payload,
    runId,
    used.tags ?? [],
    used.metadata ?? {},
  );
}
