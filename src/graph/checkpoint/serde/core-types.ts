import { Command, isCommand, isSend, Overwrite, Send } from "../../core/index.js";
import type { SerializableType } from "./registry.js";

/**
 * The engine's own classes, registered with the serializer from the start: a `Send` in a
 * pending write, a `Command` given as input, an `Overwrite` in a write come back as instances.
 */

const sendType: SerializableType<Send, [string, unknown]> = {
  tag: "send",
  test: isSend,
  encode: (send) => [send.node, send.args],
  decode: ([node, args]) => new Send(node, args),
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
