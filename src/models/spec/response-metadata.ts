/**
 * Identifies the provider's response: its id (which becomes the `AIMessage` id), the exact
 * model that answered, and when.
 *
 * @example
 * ```ts
 * const meta: ChatModelV1ResponseMetadata = { id: "chatcmpl-1", modelId: "gpt-4.1-mini-2025-04-14" };
 * ```
 */
export interface ChatModelV1ResponseMetadata {
  id?: string;
  modelId?: string;
  timestamp?: Date;
}
