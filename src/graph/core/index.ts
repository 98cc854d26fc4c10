export { isStandardSchema, type StandardSchemaLike, uniqueId } from "../../shared/index.js";
export {
  COMMAND_SYMBOL,
  Command,
  type CommandGoto,
  CommandInstance,
  type CommandParams,
  commandGotoList,
  commandUpdateEntries,
  isCommand,
} from "./command.js";
export * from "./constants.js";
export * from "./errors.js";
export {
  contentHash,
  deterministicId,
  type HashSeed,
  hashSeed,
  isoNow,
  timeOrderedId,
} from "./ids.js";
export type { Interrupt } from "./interrupt.js";
export { Overwrite, type OverwriteValue, unwrapOverwrite } from "./overwrite.js";
export { isSend, Send, type SendInterface, type SendJson, type SendOptions } from "./send.js";
export {
  getSchemaDefaultGetter,
  type StandardSchemaInput,
  type StandardSchemaOutput,
} from "./standard-schema.js";
export { coerceTimeoutPolicy, type TimeoutPolicy } from "./timeout-policy.js";
export { type ChannelVersion, compareVersions, nextIntegerVersion } from "./versions.js";
