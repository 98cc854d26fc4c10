import { IterableReadableStream } from "./iterable-readable-stream.js";

/**
 * Server-Sent Events encoding of a graph's `stream()` (`encoding: "text/event-stream"`), as
 * LangGraph.js writes it: one event per chunk, named after the stream mode (`values`,
 * `updates`, …) followed by `|<namespace segment>…` for a chunk of a nested graph, with the
 * payload as JSON. Messages are written in their stored form (`{ ...fields, type }`), checkpoints
 * (the `checkpoints` mode and the `debug` mode's `checkpoint` events) with their config reduced to
 * `{ thread_id, checkpoint_ns, checkpoint_id, checkpoint_map }` (`checkpoint`, `parent_checkpoint`)
 * and their configurable without internal keys. A run that fails ends with an `error` event
 * (`{ error: <name>, message }`) instead of rejecting the stream.
 */
export interface GraphStreamPart {
  /** The namespace of the graph the chunk comes from (empty for the root graph). */
  readonly namespace: readonly string[];
  readonly mode: string;
  readonly payload: unknown;
}

/** Encodes `parts` as Server-Sent Events bytes; cancelling the result calls `onCancel`. */
export function toGraphEventStream(
  parts: AsyncIterable<GraphStreamPart>,
  onCancel: (reason: unknown) => void,
): IterableReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new IterableReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: string, data: unknown): void => {
        controller.enqueue(encoder.encode(`event: ${event}\ndata: ${stringifyAsDict(data)}\n\n`));
      };
      try {
        for await (const { namespace, mode, payload } of parts) {
          let data = payload;
          if (mode === "checkpoints") data = serializeCheckpoint(payload);
          else if (mode === "debug" && isRecord(payload) && payload.type === "checkpoint") {
            data = { ...payload, payload: serializeCheckpoint(payload.payload) };
          }
          send(namespace.length > 0 ? `${mode}|${namespace.join("|")}` : mode, data);
        }
      } catch (error) {
        send("error", serializeError(error));
      }
      controller.close();
    },
    cancel(reason) {
      onCancel(reason);
    },
  });
}

interface StoredForm {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

function hasToDict(value: unknown): value is { toDict(): StoredForm } {
  return isRecord(value) && typeof (value as { toDict?: unknown }).toDict === "function";
}

/** `JSON.stringify`, writing objects that have `toDict()` (messages) as `{ ...data, type }`. */
function stringifyAsDict(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, current: unknown) {
    const raw = this[key];
    if (hasToDict(raw)) {
      const { type, data } = raw.toDict();
      return { ...data, type };
    }
    return current;
  });
}

function serializeError(error: unknown): { error: string; message: string } {
  if (error instanceof Error) return { error: error.name, message: error.message };
  return { error: "Error", message: JSON.stringify(error) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function configurableOf(config: unknown): Record<string, unknown> | undefined {
  if (!isRecord(config) || !isRecord(config.configurable)) return undefined;
  return config.configurable;
}

interface CheckpointRef {
  thread_id: unknown;
  checkpoint_ns: unknown;
  checkpoint_id: unknown;
  checkpoint_map: unknown;
}

function checkpointRefOf(config: unknown): CheckpointRef | null {
  const configurable = configurableOf(config);
  if (configurable === undefined || !configurable.thread_id) return null;
  return {
    thread_id: configurable.thread_id,
    checkpoint_ns: configurable.checkpoint_ns || "",
    checkpoint_id: configurable.checkpoint_id || null,
    checkpoint_map: configurable.checkpoint_map || null,
  };
}

function serializeConfig(config: unknown): unknown {
  const configurable = configurableOf(config);
  if (configurable === undefined || !isRecord(config)) return config;
  const visible = Object.fromEntries(Object.entries(configurable).filter(([key]) => !key.startsWith("__")));
  const { callbacks: _callbacks, ...rest } = config;
  return { ...rest, configurable: visible };
}

function serializeCheckpoint(payload: unknown): unknown {
  if (!isRecord(payload)) return payload;
  const tasks = Array.isArray(payload.tasks) ? payload.tasks : [];
  const result: Record<string, unknown> = {
    ...payload,
    checkpoint: checkpointRefOf(payload.config),
    parent_checkpoint: checkpointRefOf(payload.parentConfig),
    config: serializeConfig(payload.config),
    parent_config: serializeConfig(payload.parentConfig),
    tasks: tasks.map((task: unknown) => {
      if (!isRecord(task)) return task;
      const checkpoint = configurableOf(task.state) === undefined ? null : checkpointRefOf(task.state);
      if (checkpoint === null) return task;
      const { state: _state, ...rest } = task;
      return { ...rest, checkpoint };
    }),
  };
  delete result.parentConfig;
  return result;
}
