/**
 * A JSON value, as carried in provider metadata and options.
 *
 * @example
 * ```ts
 * const value: JSONValue = { system_fingerprint: "fp_1", cached: [1, 2] };
 * ```
 */
export type JSONValue = null | string | number | boolean | JSONValue[] | { [key: string]: JSONValue };
