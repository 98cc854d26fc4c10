import { isAbortError } from "../../shared/index.js";
import type { RetryPolicy } from "./types.js";

const NO_RETRY_STATUS = new Set([400, 401, 402, 403, 404, 405, 406, 407, 409]);

/** The default `retryOn`: retry everything but client errors, aborts and graph misconfiguration. */
export function defaultRetryOn(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return true;
  const e = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    status?: unknown;
    response?: { status?: unknown };
    error?: { code?: unknown };
  };
  if (isAbortError(error)) return false;
  if (typeof e.message === "string" && (e.message.startsWith("Cancel") || e.message.startsWith("AbortError")))
    return false;
  if (e.name === "GraphValueError" || e.name === "InvalidGraphError") return false;
  if (e.code === "ECONNABORTED") return false;
  // an exhausted quota does not come back by waiting (an OpenAI 429 with this code)
  if (typeof e.error === "object" && e.error !== null && e.error.code === "insufficient_quota") return false;
  const status = e.response?.status ?? e.status;
  if (status !== undefined && NO_RETRY_STATUS.has(Number(status))) return false;
  return true;
}

/** Milliseconds to wait before retry number `attempt` (1-based). */
export function retryDelay(policy: RetryPolicy, attempt: number): number {
  const initial = policy.initialInterval ?? 500;
  const interval = Math.min(
    policy.maxInterval ?? 128_000,
    initial * (policy.backoffFactor ?? 2) ** (attempt - 1),
  );
  return (policy.jitter ?? true) ? interval + Math.random() * 1000 : interval;
}
