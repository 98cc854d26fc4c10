/**
 * Run-scoped control for cooperative draining (LangGraph.js `RunControl`). Pass it as the
 * `control` option of `invoke` / `stream` (every run has one: nodes reach it as
 * `config.control`) and call {@link requestDrain} — from a SIGTERM handler, a supervisor or a
 * node — to stop the run at the next superstep boundary. The run then throws `GraphDrained`
 * with the checkpoint of the last finished step saved, and `invoke(null, config)` resumes it.
 * Work already running is not cancelled. Use a fresh control per run: once drained, a control
 * stays drained.
 *
 * @example
 * ```ts
 * const control = new RunControl();
 * process.once("SIGTERM", () => control.requestDrain("sigterm"));
 * try {
 *   await graph.invoke(input, { ...config, control });
 * } catch (e) {
 *   if (!isGraphDrained(e)) throw e;
 * }
 * ```
 */
export class RunControl {
  #drainReason: string | undefined = undefined;

  /** Asks the run to stop at the next superstep boundary; `reason` ends up on `GraphDrained`. */
  requestDrain(reason = "shutdown"): void {
    this.#drainReason = reason;
  }

  /** Whether a drain was requested. */
  get drainRequested(): boolean {
    return this.#drainReason !== undefined;
  }

  /** The reason given to {@link requestDrain}, if it was called. */
  get drainReason(): string | undefined {
    return this.#drainReason;
  }
}
