import { Command, isCommand, isSend, Overwrite, Send, type TimeoutPolicy } from "../../core/index.js";
import type { SerializableType } from "./registry.js";

/**
 * The engine's own classes, registered with the serializer from the start: a `Send` in a
 * pending write, a `Command` given as input, an `Overwrite` in a write come back as instances.
 */

/** A `Send` is stored as `[node, args]`, or `[node, args, timeout]` when it has a timeout. */
type SendData = [node: string, args: unknown] | [node: string, args: unknown, timeout: TimeoutPolicy];

const sendType: SerializableType<Send, SendData> = {
  tag: "send",
  test: isSend,
  encode: (send) => {
    const timeout = send.timeout;
    return timeout === undefined ? [send.node, send.args] : [send.node, send.args, timeout];
  },
  decode: ([node, args, timeout]) =>
    timeout === undefined ? new Send(node, args) : new Send(node, args, { timeout }),
};

interface CommandJson {
  update?: unknown;
  goto?: unknown[];
  resume?: unknown;
  graph?: string;
}

const commandType: SerializableType<Command, CommandJson> = {
  tag: "command",
  test: isCommand,
  encode: (command) => {
    const json: CommandJson = {};
    if (command.update !== undefined) json.update = command.update;
    if (command.goto !== undefined && command.goto.length > 0) json.goto = command.goto;
    if (command.resume !== undefined) json.resume = command.resume;
    if (command.graph !== undefined) json.graph = command.graph;
    return json;
  },
  decode: (json) => new Command(json as ConstructorParameters<typeof Command>[0]) as Command,
};

const overwriteType: SerializableType<Overwrite, unknown> = {
  tag: "overwrite",
  test: (value) => value instanceof Overwrite || (value as { lg_name?: unknown }).lg_name === "Overwrite",
  encode: (overwrite) => overwrite.value,
  decode: (value) => new Overwrite(value),
};

/** The engine's types, in the order the serializer tries them. */
export const CORE_SERIALIZABLE_TYPES: readonly SerializableType<never, unknown>[] = [
  sendType,
  commandType,
  overwriteType,
] as unknown as readonly SerializableType<never, unknown>[];
