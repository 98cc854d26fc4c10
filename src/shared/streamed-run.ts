/**
 * Whether a call runs in a graph run streamed to a consumer. LangGraph.js keeps such a run about
 * one step ahead of a consumer that reads at once, and LangChain.js reaches a chat model's
 * `_generate`, and a tool's function, a few microtask turns after the call starts; agentgraph's
 * calls reach them at once. In a streamed run (and only there: `invoke` pays nothing) a chat
 * model waits one turn before `_generate` (two before streaming), and a tool one before its
 * function, so that what models and tools do and what the consumer reads interleave as in
 * LangGraph.js. The engine marks the `writer` of a streamed root run's tasks; the writer reaches
 * every call made in a task (the config's, or the ambient one's).
 */

/** The mark (a registered symbol: it holds across copies of the library). */
const STREAMED_RUN: unique symbol = Symbol.for("agentgraph.streamedRun") as never;

/**
 * Marks `writer` as the one of a run streamed to a consumer (see the module's comment).
 *
 * @example
 * ```ts
 * const writer = markStreamedRun(() => {});
 * isStreamedRunWriter(writer); // true
 * ```
 */
export function markStreamedRun<W extends (...args: never[]) => unknown>(writer: W): W {
  Object.defineProperty(writer, STREAMED_RUN, { value: true });
  return writer;
}

/** Whether `writer` (a task's, as a call's options carry it) is marked by {@link markStreamedRun}. */
export function isStreamedRunWriter(writer: unknown): boolean {
  return typeof writer === "function" && (writer as { [STREAMED_RUN]?: unknown })[STREAMED_RUN] === true;
}
