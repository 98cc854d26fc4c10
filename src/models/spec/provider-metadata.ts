import type { JSONValue } from "./json-value.js";

/**
 * Provider-specific data attached to a result, keyed by provider name
 * (`{ openai: { system_fingerprint: "fp_1" } }`). The LangChain-shaped surface copies the
 * entry of the model's own provider into `response_metadata`.
 *
 * @example
 * ```ts
 * const meta: ChatModelV1ProviderMetadata = { anthropic: { stop_sequence: null } };
 * ```
 */
export type ChatModelV1ProviderMetadata = Record<string, Record<string, JSONValue>>;
