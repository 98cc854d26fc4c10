import { SerializationError } from "./errors.js";

/** What is stored for an `Error`: its name, message, stack, cause and own enumerable fields. */
export interface ErrorJson {
  name: string;
  message: string;
  stack?: string;
  cause?: unknown;
  fields?: Record<string, unknown>;
}

const OWN_SLOTS = new Set(["name", "message", "stack", "cause"]);

/** The stored form of an error (its fields still to be encoded). */
export function errorToJson(error: Error): ErrorJson {
  const json: ErrorJson = { name: String(error.name), message: String(error.message) };
  if (typeof error.stack === "string") json.stack = error.stack;
  if (Object.hasOwn(error, "cause")) json.cause = error.cause;
  let fields: Record<string, unknown> | undefined;
  for (const key of Object.keys(error)) {
    if (OWN_SLOTS.has(key)) continue;
    fields ??= {};
    define(fields, key, (error as unknown as Record<string, unknown>)[key]);
  }
  // an agentgraph error's `code` is its own, not enumerable (its enumerable twin is `lc_error_code`)
  if (fields?.code === undefined && Object.hasOwn(error, "code")) {
    fields ??= {};
    define(fields, "code", (error as unknown as Record<string, unknown>).code);
  }
  if (fields !== undefined) json.fields = fields;
  return json;
}

/**
 * Rebuilds an error as a plain `Error` carrying the stored name, message, stack, cause and
 * fields. Never an instance of the original class: stored data does not choose constructors.
 */
export function errorFromJson(json: unknown): Error {
  if (typeof json !== "object" || json === null || typeof (json as ErrorJson).message !== "string") {
    throw new SerializationError(
      'Cannot decode a value tagged "err": its payload must be an object with a string "message". The stored data is corrupt.',
    );
  }
  const { name, message, stack, fields } = json as ErrorJson;
  const error = Object.hasOwn(json, "cause")
    ? new Error(message, { cause: (json as ErrorJson).cause })
    : new Error(message);
  if (typeof name === "string" && name !== "Error") error.name = name;
  Object.defineProperty(error, "stack", {
    value: typeof stack === "string" ? stack : `${error.name}: ${message}`,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  if (typeof fields === "object" && fields !== null) {
    for (const key of Object.keys(fields)) define(error, key, (fields as Record<string, unknown>)[key]);
  }
  return error;
}

/** Sets an own enumerable property, safely even for a key named `__proto__`. */
function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
