/**
 * Reads an environment variable where the runtime has `process.env` (Node, Bun, Deno), and
 * returns `undefined` elsewhere (browsers, workers), so models never need `node:process`.
 *
 * @example
 * ```ts
 * const key = getEnvironmentVariable("OPENAI_API_KEY");
 * ```
 */
export function getEnvironmentVariable(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  return value === undefined || value === "" ? undefined : value;
}
