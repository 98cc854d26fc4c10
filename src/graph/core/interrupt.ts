/**
 * A pause requested by `interrupt(value)`: `value` is what the caller is shown, `id` answers it.
 * `response_schema` is the JSON Schema of the expected answer, when the interrupt was given a
 * `responseSchema`.
 */
export interface Interrupt<Value = unknown> {
  id: string;
  value: Value;
  /** JSON Schema of the value expected when resuming (from `interrupt(value, { responseSchema })`). */
  response_schema?: Record<string, unknown>;
}
