import type { CallbackHandler } from "../../shared/index.js";
import { isGraphBubbleUp, TAG_HIDDEN } from "../core/index.js";
import { graphNamespace, taskCheckpointNs } from "./namespace.js";
import type { StreamSink } from "./sink.js";

/**
 * One event of the `tools` stream mode, as LangGraph.js emits it: a tool call starts (with the
 * JSON text of its arguments), reports progress, ends (with what the tool returned, usually a
 * `ToolMessage`) or fails (with the error).
 *
 * @example
 * ```ts
 * for await (const event of await graph.stream(input, { streamMode: "tools" })) {
 *   if (event.event === "on_tool_end") console.log(event.name, event.output);
 * }
 * ```
 */
export type ToolsStreamEvent =
  | { event: "on_tool_start"; toolCallId: string | undefined; name: string; input: unknown }
  | { event: "on_tool_event"; toolCallId: string | undefined; name: string; data: unknown }
  | { event: "on_tool_end"; toolCallId: string | undefined; name: string; output: unknown }
  | { event: "on_tool_error"; toolCallId: string | undefined; name: string; error: unknown };

interface ToolRun {
  readonly namespace: string[];
  readonly toolCallId: string | undefined;
  readonly name: string;
}

/**
 * Implements the `tools` stream mode. As a callback handler on the run's config it hears every
 * tool invoked inside a node (tools report `handleToolStart` … `handleToolEnd` to the handlers
 * of the config they run with), so the engine needs to know nothing about tools. The namespace
 * of an event is the graph of the task that ran the tool (read from the run's metadata); tools
 * run by subgraphs are reported only with `subgraphs: true`, as in LangGraph.js. Interrupts and
 * other control-flow signals are not errors and are not reported.
 */
export class ToolsStreamHandler implements CallbackHandler {
  readonly name: string = "ToolsStreamHandler";
  private readonly sink: StreamSink;
  private readonly runs = new Map<string, ToolRun>();

  constructor(sink: StreamSink) {
    this.sink = sink;
  }

  handleToolStart(
    _tool: unknown,
    input: string,
    runId: string,
    _parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): void {
    if (metadata === undefined || tags?.includes(TAG_HIDDEN)) return;
    const namespace = this.namespaceOf(metadata);
    if (namespace === undefined) return;
    const run: ToolRun = { namespace, toolCallId, name: runName ?? "unknown" };
    this.runs.set(runId, run);
    this.emit(run, { event: "on_tool_start", toolCallId, name: run.name, input });
  }

  handleToolEvent(data: unknown, runId: string): void {
    const run = this.runs.get(runId);
    if (run === undefined) return;
    this.emit(run, { event: "on_tool_event", toolCallId: run.toolCallId, name: run.name, data });
  }

  handleToolEnd(output: unknown, runId: string): void {
    const run = this.runs.get(runId);
    if (run === undefined) return;
    this.runs.delete(runId);
    this.emit(run, { event: "on_tool_end", toolCallId: run.toolCallId, name: run.name, output });
  }

  handleToolError(error: unknown, runId: string): void {
    const run = this.runs.get(runId);
    if (run === undefined) return;
    this.runs.delete(runId);
    if (isGraphBubbleUp(error)) return;
    this.emit(run, { event: "on_tool_error", toolCallId: run.toolCallId, name: run.name, error });
  }

  /** The namespace a tool run's events go under, `undefined` when the run is not streamed. */
  protected namespaceOf(metadata: Record<string, unknown>): string[] | undefined {
    const ns = taskCheckpointNs(metadata);
    const namespace = ns !== "" ? graphNamespace(ns, metadata.langgraph_path) : [];
    return this.sink.wants("tools", namespace.length) ? namespace : undefined;
  }

  private emit(run: ToolRun, event: ToolsStreamEvent): void {
    this.sink.push(run.namespace, "tools", event);
  }
}
