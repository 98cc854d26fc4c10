/** A pause requested by `interrupt(value)`: `value` is what the caller is shown, `id` answers it. */
export interface Interrupt<Value = unknown> {
  id: string;
  value: Value;
}
