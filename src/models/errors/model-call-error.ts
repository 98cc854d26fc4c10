import { AgentGraphError, type AgentGraphErrorOptions } from "../../shared/index.js";

/**
 * What {@link ModelCallError} knows about the failed request.
 *
 * @example
 * ```ts
 * new ModelCallError("Upstream failed", { provider: "openai", status: 502, isRetryable: true });
 * ```
 */
export interface ModelCallErrorOptions extends AgentGraphErrorOptions {
  /** Provider name, e.g. `"openai"`. */
  provider: string;
  /** HTTP status, when the provider answered. */
  status?: number;
  /** Whether sending the same request again may succeed (408/409/429/5xx, network errors, timeouts). */
  isRetryable: boolean;
  /** Response headers (lower-case names). */
  headers?: Record<string, string>;
  /** The provider's error body, when it sent one. */
  responseBody?: unknown;
  /** Provider request id (`x-request-id` / `request-id`), for support tickets. */
  requestId?: string;
  /** How many requests were made in total before giving up. */
  attempts?: number;
}

/**
 * A chat-model request failed. `status`, `isRetryable`, `headers` and `attempts` say how;
 * subclasses mark the common cases, and `code` carries the LangChain.js error codes
 * (`MODEL_AUTHENTICATION`, `MODEL_NOT_FOUND`, `MODEL_RATE_LIMIT`).
 *
 * @example
 * ```ts
 * try {
 *   await model.invoke("hi");
 * } catch (e) {
 *   if (e instanceof ModelCallError && e.status === 429) console.log(`gave up after ${e.attempts} attempts`);
 * }
 * ```
 */
export class ModelCallError extends AgentGraphError {
  static override readonly brandName: string = "ModelCallError";
  readonly provider: string;
  readonly status: number | undefined;
  readonly isRetryable: boolean;
  readonly headers: Record<string, string>;
  readonly responseBody: unknown;
  readonly requestId: string | undefined;
  readonly attempts: number;
  /** The options this error was built from, so it can be re-created with a new message. */
  readonly options: ModelCallErrorOptions;

  constructor(message: string, options: ModelCallErrorOptions) {
    super(message, { code: options.code ?? "MODEL_CALL_FAILED", cause: options.cause });
    this.options = options;
    this.provider = options.provider;
    this.status = options.status;
    this.isRetryable = options.isRetryable;
    this.headers = options.headers ?? {};
    this.responseBody = options.responseBody;
    this.requestId = options.requestId;
    this.attempts = options.attempts ?? 1;
  }
}

/**
 * The provider rejected the credentials (401) or the permissions (403). Never retried.
 *
 * @example
 * ```ts
 * if (e instanceof ModelAuthenticationError) console.log("set OPENAI_API_KEY");
 * ```
 */
export class ModelAuthenticationError extends ModelCallError {
  static override readonly brandName: string = "ModelAuthenticationError";
}

/**
 * The provider does not know the model or endpoint (404). Never retried.
 *
 * @example
 * ```ts
 * if (e instanceof ModelNotFoundError) console.log("check the model name and baseURL");
 * ```
 */
export class ModelNotFoundError extends ModelCallError {
  static override readonly brandName: string = "ModelNotFoundError";
}

/**
 * The provider answered 429 (rate limit or quota). Retried with backoff honouring
 * `retry-after`; this error means the retries ran out (or the quota is exhausted).
 *
 * @example
 * ```ts
 * if (e instanceof ModelRateLimitError) console.log(e.headers["retry-after"]);
 * ```
 */
export class ModelRateLimitError extends ModelCallError {
  static override readonly brandName: string = "ModelRateLimitError";
}

/**
 * No response arrived within `timeout` milliseconds (retried like a network error).
 *
 * @example
 * ```ts
 * const model = new ChatOpenAI({ model: "gpt-4.1-mini", timeout: 30_000 });
 * ```
 */
export class ModelTimeoutError extends ModelCallError {
  static override readonly brandName: string = "ModelTimeoutError";
}

/**
 * The request never reached the provider (connection refused, reset, DNS failure).
 * Retried; this error means the retries ran out.
 *
 * @example
 * ```ts
 * if (e instanceof ModelConnectionError) console.log("is the local server running?");
 * ```
 */
export class ModelConnectionError extends ModelCallError {
  static override readonly brandName: string = "ModelConnectionError";
}
