/** Longest server-requested wait we honour; longer hints fall back to our own backoff. */
const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/**
 * How long to wait before retry number `retryIndex` (0 for the first retry).
 *
 * A server hint wins when it is between 0 and 60 s: `retry-after-ms` (milliseconds), then
 * `retry-after` (seconds or an HTTP date). Otherwise the delay is exponential —
 * 0.5 s, 1 s, 2 s, … capped at 8 s — minus up to 25 % random jitter, as the official
 * OpenAI and Anthropic SDKs do.
 *
 * @example
 * ```ts
 * retryDelayMs(0, { "retry-after-ms": "20" }); // 20
 * retryDelayMs(2, {}, () => 0); // 2000
 * ```
 */
export function retryDelayMs(
  retryIndex: number,
  headers: Record<string, string>,
  random: () => number = Math.random,
  now: () => number = Date.now,
): number {
  const hinted = serverHintMs(headers, now);
  if (hinted !== undefined && hinted >= 0 && hinted <= MAX_RETRY_AFTER_MS) return hinted;
  const base = Math.min(INITIAL_DELAY_MS * 2 ** retryIndex, MAX_DELAY_MS);
  return base * (1 - random() * 0.25);
}

/**
 * The wait a server asked for in its response headers, in milliseconds: `retry-after-ms`, then
 * `retry-after` (seconds or an HTTP date); `undefined` when it asked for none.
 *
 * @example
 * ```ts
 * serverHintMs({ "retry-after": "2" }); // 2000
 * ```
 */
export function serverHintMs(
  headers: Record<string, string>,
  now: () => number = Date.now,
): number | undefined {
  const ms = headers["retry-after-ms"];
  if (ms !== undefined) {
    const value = Number.parseFloat(ms);
    if (!Number.isNaN(value)) return value;
  }
  const after = headers["retry-after"];
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : date - now();
}
