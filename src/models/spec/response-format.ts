/**
 * The shape of the answer: free text, any JSON object, or JSON matching a schema.
 *
 * @example
 * ```ts
 * const format: ChatModelV1ResponseFormat = {
 *   type: "json", name: "person", strict: true,
 *   schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
 * };
 * ```
 */
export type ChatModelV1ResponseFormat =
  | { type: "text" }
  | {
      type: "json";
      /** When absent, any JSON object ("JSON mode"). */
      schema?: Record<string, unknown>;
      name?: string;
      description?: string;
      strict?: boolean;
    };
