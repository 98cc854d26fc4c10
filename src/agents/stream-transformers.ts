/**
 * The agent's own v3 stream projections, as LangChain.js 1.5's `createAgent` compiles them in
 * before any middleware's or the agent's `streamTransformers`: `run.toolCalls` (one
 * {@link ToolCallStream} per tool call the agent's tools node runs) and `run.subagents` (one
 * {@link SubagentRunStream} per named agent a tool runs inside the agent).
 *
 * Both are native transformers: their projections are set on the run stream itself, not on
 * `run.extensions`.
 */
import {
  type ChatModelStream,
  createMessagesTransformer,
  type GraphRunStream,
  type LifecycleCause,
  type Namespace,
  type NativeStreamTransformer,
  type ProtocolEvent,
  StreamChannel,
  type StreamTransformer,
  type ToolCallStatus,
  type ToolCallStream,
} from "../graph/index.js";
import { ToolMessage } from "../messages/index.js";
import { hasPrefix, nsKey } from "../shared/index.js";
import type { DynamicStructuredTool, DynamicTool, StructuredTool } from "../tools/index.js";

/** Projection of {@link createToolCallTransformer}. */
export interface ToolCallProjection {
  toolCalls: AsyncIterable<ToolCallStream>;
}

/** Projection of {@link createSubagentTransformer}. */
export interface SubagentProjection {
  subagents: AsyncIterable<SubagentRunStream>;
}

/** The literal name of a tool type (`string` when it has none). */
type ToolNameOf<T> = T extends { readonly name: infer N extends string } ? N : string;

/** The arguments a tool type takes (its schema's input type). */
type ToolInputOf<T> =
  T extends StructuredTool<infer _Schema, infer _Parsed, infer Input>
    ? Input
    : T extends (args: infer Args, ...rest: never[]) => unknown
      ? Args
      : unknown;

/** What a tool type's function returns (awaited). */
type ToolOutputOf<T> =
  T extends DynamicStructuredTool<infer _Schema, infer _Parsed, infer _Input, infer Output>
    ? Output
    : T extends DynamicTool<infer Output>
      ? Output
      : T extends StructuredTool<infer _Schema, infer _Parsed, infer _Input, infer Output>
        ? Exclude<Output, ToolMessage>
        : T extends (...args: never[]) => infer Result
          ? Awaited<Result>
          : unknown;

/**
 * One {@link ToolCallStream} type per tool of `TTools` (its name, input and output types), as a
 * union; a tool list without precise types gives the untyped `ToolCallStream`.
 *
 * @example
 * ```ts
 * type Calls = ToolCallStreamUnion<[typeof getWeather]>; // ToolCallStream<"get_weather", { city: string }, string>
 * ```
 */
export type ToolCallStreamUnion<TTools extends readonly unknown[]> = {
  [K in keyof TTools]: ToolCallStream<ToolNameOf<TTools[K]>, ToolInputOf<TTools[K]>, ToolOutputOf<TTools[K]>>;
}[number];

/**
 * A named agent (`createAgent({ name })`) that ran inside a tool of the agent, as
 * `run.subagents` yields it: its `name` (the `lc_agent_name` of its tasks), the tool call that
 * started it (`cause`), its final state (`output`) and its own `messages`, `toolCalls` and
 * nested `subagents`.
 *
 * @example
 * ```ts
 * for await (const sub of run.subagents) {
 *   console.log(sub.name, sub.cause?.tool_call_id);
 *   for await (const call of sub.toolCalls) console.log(call.name, await call.output);
 *   console.log((await sub.output).messages.length);
 * }
 * ```
 */
export interface SubagentRunStream<
  TValues = Record<string, unknown>,
  TTools extends readonly unknown[] = readonly unknown[],
> {
  /** The subagent's `lc_agent_name`. */
  readonly name: string;
  /** `{ type: "toolCall", tool_call_id }` of the tool call that ran it, when known. */
  readonly cause: LifecycleCause | undefined;
  /** The subagent's last state once it ends. */
  readonly output: Promise<TValues>;
  /** The messages of the subagent's own nodes. */
  readonly messages: AsyncIterable<Omit<ChatModelStream, "then">>;
  /** The subagent's own tool calls. */
  readonly toolCalls: AsyncIterable<ToolCallStreamUnion<TTools>>;
  /** The named agents the subagent's tools ran. */
  readonly subagents: AsyncIterable<SubagentRunStream>;
}

/**
 * What an agent's `streamEvents(input, { version: "v3" })` resolves to: the graph's run stream
 * with the agent's own `toolCalls` and `subagents` projections.
 *
 * @example
 * ```ts
 * const run: AgentRunStream<{ messages: BaseMessage[] }, [typeof getWeather]> =
 *   await agent.streamEvents(input, { version: "v3" });
 * for await (const call of run.toolCalls) console.log(call.name, call.input.city);
 * ```
 */
export type AgentRunStream<
  TValues = Record<string, unknown>,
  TTools extends readonly unknown[] = readonly unknown[],
  TExtensions = Record<string, unknown>,
> = GraphRunStream<TValues, TExtensions> & {
  /** The agent's tool calls, as its tools node starts them. */
  toolCalls: AsyncIterable<ToolCallStreamUnion<TTools>>;
  /** The named agents the agent's tools ran. */
  subagents: AsyncIterable<SubagentRunStream<TValues>>;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A promise that never counts as an unhandled rejection (the caller may never await it). */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * True when a `tool-error` message is the JSON list of interrupts a `GraphInterrupt` carries
 * (every entry an `{ id, value }`): the tool paused, it did not fail.
 */
function isInterruptMessage(message: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return false;
  }
  return (
    Array.isArray(parsed) &&
    parsed.length > 0 &&
    parsed.every((entry) => isRecord(entry) && typeof entry.id === "string" && "value" in entry)
  );
}

/** A tool's result as `call.output` gives it: a `ToolMessage`'s content (also serialized), else as is. */
function toolResult(output: unknown): unknown {
  if (ToolMessage.isInstance(output)) return output.content;
  if (isRecord(output) && output.type === "constructor" && Array.isArray(output.id)) {
    const id = output.id as unknown[];
    if (id[id.length - 1] === "ToolMessage")
      return isRecord(output.kwargs) ? (output.kwargs.content ?? output.kwargs.content_blocks) : undefined;
  }
  return output;
}

/** Tool arguments as the `tools` channel carries them (a JSON string) parsed back. */
function parseInput(input: unknown): unknown {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

interface PendingToolCall {
  finish(output: unknown): void;
  reject(error: unknown, message: string): void;
}

/**
 * Follows the tool calls of the graph at namespace `path` (its own tools node, not the agents
 * its tools run): each `tool-started` event yields a {@link ToolCallStream} whose `output`,
 * `status` and `error` settle when the call finishes (`"finished"`, the tool's result) or fails
 * (`"error"`, the message; `output` rejects). A call paused by an interrupt stays pending; calls
 * still pending when the run ends settle as finished without output, or with the run's error.
 *
 * @example
 * ```ts
 * const graph = builder.compile({ transformers: [createToolCallTransformer([])] });
 * const run = await graph.streamEvents(input, { version: "v3" });
 * for await (const call of (run as unknown as ToolCallProjection).toolCalls) console.log(call.name);
 * ```
 */
export function createToolCallTransformer(
  path: Namespace,
): () => NativeStreamTransformer<ToolCallProjection> {
  return () => {
    const log = StreamChannel.local<ToolCallStream>();
    const pending = new Map<string, PendingToolCall>();

    const start = (callId: string, name: string, input: unknown): void => {
      if (pending.has(callId)) return;
      let settleOutput: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
      let settleStatus: ((status: ToolCallStatus) => void) | undefined;
      let settleError: ((message: string | undefined) => void) | undefined;
      const output = quiet(
        new Promise<unknown>((resolve, reject) => {
          settleOutput = { resolve, reject };
        }),
      );
      const status = new Promise<ToolCallStatus>((resolve) => {
        settleStatus = resolve;
      });
      const error = new Promise<string | undefined>((resolve) => {
        settleError = resolve;
      });
      pending.set(callId, {
        finish(value) {
          settleOutput?.resolve(value);
          settleStatus?.("finished");
          settleError?.(undefined);
        },
        reject(reason, message) {
          settleOutput?.reject(reason);
          settleStatus?.("error");
          settleError?.(message);
        },
      });
      log.push({ name, callId, input: parseInput(input), output, status, error });
    };

    return {
      __native: true,
      init: () => ({ toolCalls: log }),
      process(event: ProtocolEvent) {
        const ns = event.params.namespace;
        if (event.method !== "tools" || ns.length > path.length + 1 || !hasPrefix(ns, path)) return true;
        const data = event.params.data;
        if (!isRecord(data) || typeof data.tool_call_id !== "string") return true;
        const callId = data.tool_call_id;
        if (data.event === "tool-started") {
          start(callId, typeof data.tool_name === "string" ? data.tool_name : "unknown", data.input);
        }
        const call = pending.get(callId);
        if (call === undefined) return true;
        if (data.event === "tool-finished") {
          pending.delete(callId);
          call.finish(toolResult(data.output));
        } else if (data.event === "tool-error") {
          const message = typeof data.message === "string" ? data.message : "unknown error";
          if (isInterruptMessage(message)) return true;
          pending.delete(callId);
          call.reject(new Error(message), message);
        }
        return true;
      },
      finalize() {
        for (const call of pending.values()) call.finish(undefined);
        pending.clear();
        log.close();
      },
      fail(error) {
        const message = error instanceof Error ? error.message : String(error);
        for (const call of pending.values()) call.reject(error, message);
        pending.clear();
        log.fail(error);
      },
    };
  };
}

interface SubagentHandle {
  readonly path: Namespace;
  readonly name: string;
  readonly parts: readonly StreamTransformer<unknown>[];
  resolve(values: unknown): void;
  reject(error: unknown): void;
  latest: unknown;
  done: boolean;
}

/**
 * Finds the named agents run one level below namespace `scope` (a `createAgent({ name })` that a
 * tool invokes): the first task of a namespace carries the agent's name as `lc_agent_name` in
 * its metadata. Each yields a {@link SubagentRunStream} whose `messages`, `toolCalls` and nested
 * `subagents` follow that namespace, and whose `output` is the subagent's last state once its
 * `lifecycle` ends (rejected when it failed or the run fails).
 *
 * @example
 * ```ts
 * const graph = builder.compile({ transformers: [createSubagentTransformer()] });
 * ```
 */
export function createSubagentTransformer(
  scope: Namespace = [],
): () => NativeStreamTransformer<SubagentProjection> {
  return () => {
    const log = StreamChannel.local<SubagentRunStream>();
    /** The `lc_agent_name` of each namespace's first task. */
    const agentNames = new Map<string, string | undefined>();
    /** Task id → the tool call its input carries. */
    const taskToolCalls = new Map<string, string>();
    /** Namespace → the last tool call started there (the tools task a subagent runs in). */
    const startedToolCalls = new Map<string, string>();
    const handles = new Map<string, SubagentHandle>();

    const recordTask = (ns: Namespace, data: Record<string, unknown>): void => {
      const key = nsKey(ns);
      if (!agentNames.has(key)) {
        const name = isRecord(data.metadata) ? data.metadata.lc_agent_name : undefined;
        agentNames.set(key, typeof name === "string" ? name : undefined);
      }
      if (typeof data.id !== "string") return;
      const input = data.input;
      let callId: unknown;
      if (isRecord(input) && isRecord(input.tool_call)) callId = input.tool_call.id;
      else if (Array.isArray(input)) callId = input.find((c) => isRecord(c) && typeof c.id === "string")?.id;
      if (typeof callId === "string") taskToolCalls.set(data.id, callId);
    };

    const causeOf = (ns: Namespace): LifecycleCause | undefined => {
      const started = startedToolCalls.get(nsKey(ns));
      if (started !== undefined && started !== "") return { type: "toolCall", tool_call_id: started };
      const segment = ns[ns.length - 1] ?? "";
      const colon = segment.indexOf(":");
      if (colon === -1) return undefined;
      const callId = taskToolCalls.get(segment.slice(colon + 1));
      return callId === undefined || callId === "" ? undefined : { type: "toolCall", tool_call_id: callId };
    };

    const discover = (ns: Namespace): void => {
      if (ns.length !== scope.length + 1 || !hasPrefix(ns, scope)) return;
      const key = nsKey(ns);
      if (handles.has(key)) return;
      const name = agentNames.get(key);
      if (name === undefined || name === "") return;
      const messages = createMessagesTransformer(ns);
      const toolCalls = createToolCallTransformer(ns)();
      const subagents = createSubagentTransformer(ns)();
      let settle: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
      const output = quiet(
        new Promise<unknown>((resolve, reject) => {
          settle = { resolve, reject };
        }),
      );
      handles.set(key, {
        path: ns,
        name,
        parts: [messages, toolCalls, subagents],
        resolve: (values) => settle?.resolve(values),
        reject: (error) => settle?.reject(error),
        latest: undefined,
        done: false,
      });
      log.push({
        name,
        cause: causeOf(ns),
        output: output as Promise<Record<string, unknown>>,
        messages: messages.init().messages,
        toolCalls: toolCalls.init().toolCalls,
        subagents: subagents.init().subagents,
      });
    };

    const end = (handle: SubagentHandle, error?: { error: unknown }): void => {
      if (handle.done) return;
      handle.done = true;
      if (error === undefined) handle.resolve(handle.latest);
      else handle.reject(error.error);
      for (const part of handle.parts) void part.finalize?.();
    };

    return {
      __native: true,
      init: () => ({ subagents: log }),
      process(event: ProtocolEvent) {
        const ns = event.params.namespace;
        const data = event.params.data;
        if (
          event.method === "tools" &&
          isRecord(data) &&
          data.event === "tool-started" &&
          typeof data.tool_call_id === "string" &&
          data.tool_call_id !== ""
        ) {
          startedToolCalls.set(nsKey(ns), data.tool_call_id);
        }
        if (event.method === "tasks" && isRecord(data) && !("result" in data)) {
          recordTask(ns, data);
          discover(ns);
        }
        for (const [key, handle] of handles) {
          if (handle.done || !hasPrefix(ns, handle.path)) continue;
          for (const part of handle.parts) part.process(event);
          if (nsKey(ns) !== key || !isRecord(data)) continue;
          if (event.method === "values") handle.latest = data;
          else if (event.method === "lifecycle") {
            if (data.event === "completed" || data.event === "interrupted") end(handle);
            else if (data.event === "failed")
              end(handle, { error: new Error(`Subagent ${handle.name} failed`) });
          }
        }
        return true;
      },
      finalize() {
        for (const handle of handles.values()) end(handle);
        log.close();
      },
      fail(error) {
        for (const handle of handles.values()) end(handle, { error });
        log.fail(error);
      },
    };
  };
}
