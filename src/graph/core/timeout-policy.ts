import { InvalidGraphError } from "./errors.js";

/**
 * How long one attempt of a node may take (`addNode(name, fn, { timeout })`, or
 * `new Send(node, args, { timeout })` for the one task a `Send` starts; a number is a
 * `runTimeout`). Milliseconds, as the other durations of the engine. Each attempt has its own
 * clock (a retry starts afresh). When a timeout fires, the attempt's writes are dropped, its
 * `config.signal` aborts and a `NodeTimeoutError` is raised; a node that ignores its signal
 * cannot be stopped mid-work, but what it does afterwards is discarded.
 */
export interface TimeoutPolicy {
  /** Hard wall-clock cap of one attempt; never refreshed. */
  runTimeout?: number;
  /**
   * Longest stretch without progress: custom stream writes (`config.writer`), functional-API
   * task calls, callback events of model and tool calls made with the node's config, and
   * `config.heartbeat()` refresh it (with `refreshOn: "heartbeat"`, only `heartbeat()` does).
   */
  idleTimeout?: number;
  /** What refreshes `idleTimeout` (default `"auto"`, see above). */
  refreshOn?: "auto" | "heartbeat";
}

function positiveMs(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    throw new InvalidGraphError(
      `${field} must be greater than 0 (got ${JSON.stringify(value)}). Give the timeout in milliseconds, e.g. { timeout: 30_000 } or { timeout: { ${field}: 30_000 } }.`,
    );
  }
  return value;
}

/**
 * @internal Normalizes a `timeout` option (of a node, a task or a `Send`): a number is a
 * `runTimeout`; a policy keeps the positive timeouts it sets. `undefined` when no timeout is
 * set. Throws an `InvalidGraphError` for a timeout that is not a positive number or an unknown
 * `refreshOn`.
 */
export function coerceTimeoutPolicy(
  value: number | TimeoutPolicy | undefined | null,
): TimeoutPolicy | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" && typeof value !== "object") {
    positiveMs(value, "runTimeout");
  }
  const policy: TimeoutPolicy = typeof value === "number" ? { runTimeout: value } : (value as TimeoutPolicy);
  const refreshOn = policy.refreshOn ?? "auto";
  if (refreshOn !== "auto" && refreshOn !== "heartbeat") {
    throw new InvalidGraphError(
      `refreshOn must be "auto" or "heartbeat" (got ${JSON.stringify(refreshOn)}).`,
    );
  }
  const runTimeout = positiveMs(policy.runTimeout, "runTimeout");
  const idleTimeout = positiveMs(policy.idleTimeout, "idleTimeout");
  if (runTimeout === undefined && idleTimeout === undefined) return undefined;
  const normalized: TimeoutPolicy = {};
  if (runTimeout !== undefined) normalized.runTimeout = runTimeout;
  if (idleTimeout !== undefined) normalized.idleTimeout = idleTimeout;
  normalized.refreshOn = refreshOn;
  return normalized;
}
