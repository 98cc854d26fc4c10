import { AbortError, AgentGraphError } from "../../shared/index.js";
import {
  ModelAuthenticationError,
  ModelCallError,
  type ModelCallErrorOptions,
  ModelConnectionError,
  ModelNotFoundError,
  ModelRateLimitError,
  ModelTimeoutError,
} from "./model-call-error.js";

/** Who was called, so that error messages can say what to fix. */
export interface ProviderErrorContext {
  /** Provider name, e.g. `"openai"`. */
  provider: string;
  /** Human name, e.g. `"OpenAI"`. */
  displayName: string;
  /** Where the key comes from, e.g. "the `apiKey` option or OPENAI_API_KEY". */
  apiKeyHint: string;
  model: string;
  baseURL?: string | undefined;
  /**
   * Start an HTTP error's message with the SDK error's own message (`"401 Incorrect API key
   * provided…"`), as the LangChain.js provider does, instead of "<displayName> request failed
   * with status …".
   */
  sdkMessageFirst?: boolean | undefined;
}

interface SdkErrorShape {
  name?: unknown;
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  message?: unknown;
  requestID?: unknown;
}

/**
 * Turns whatever a provider SDK (or `fetch`) threw into an agentgraph error: a user abort
 * becomes {@link AbortError}; everything else a {@link ModelCallError} subclass whose message
 * names the provider, the status and what to do. Errors that are already agentgraph errors
 * pass through.
 *
 * Structural on purpose: both official SDKs throw `APIError` shapes (`status`, `headers`,
 * `error`), and no `instanceof` is needed across their copies.
 *
 * @example
 * ```ts
 * try { await client.chat.completions.create(body); }
 * catch (e) { throw modelErrorFromSdk(e, context); }
 * ```
 */
export function modelErrorFromSdk(error: unknown, ctx: ProviderErrorContext): Error {
  if (error instanceof AgentGraphError) return error;
  const e = (typeof error === "object" && error !== null ? error : {}) as SdkErrorShape;
  const name = typeof e.name === "string" ? e.name : "";
  const cause = error;
  if (name === "APIUserAbortError" || name === "AbortError") {
    return new AbortError(`The ${ctx.displayName} request was aborted.`, { cause });
  }
  if (name === "APIConnectionTimeoutError") {
    return new ModelTimeoutError(
      `${ctx.displayName} did not respond in time. Raise \`timeout\` or check the server.`,
      {
        provider: ctx.provider,
        isRetryable: true,
        code: "MODEL_TIMEOUT",
        cause,
      },
    );
  }
  if (typeof e.status !== "number" && e.error !== undefined && e.error !== null) {
    // An error event inside an open stream: the provider answered, then reported a failure.
    return new ModelCallError(`${ctx.displayName} reported an error while streaming: ${serverMessage(e)}.`, {
      provider: ctx.provider,
      isRetryable: false,
      responseBody: e.error,
      cause,
    });
  }
  if (typeof e.status !== "number") {
    const where = ctx.baseURL ?? `the ${ctx.displayName} API`;
    // one full stop after the detail, which may end with its own ("Request was aborted.")
    const detail = describeCause(error).replace(/\.$/, "");
    return new ModelConnectionError(
      `Could not reach ${where}: ${detail}. Check that the server is running and that \`baseURL\` is right.`,
      { provider: ctx.provider, isRetryable: true, code: "MODEL_CONNECTION", cause },
    );
  }
  const headers = headersToRecord(e.headers);
  const options: ModelCallErrorOptions = {
    provider: ctx.provider,
    status: e.status,
    isRetryable: isRetryableStatus(e.status, headers),
    headers,
    responseBody: e.error,
    cause,
  };
  const requestId =
    typeof e.requestID === "string" ? e.requestID : (headers["x-request-id"] ?? headers["request-id"]);
  if (requestId !== undefined) options.requestId = requestId;
  const sdkMessage = ctx.sdkMessageFirst === true && typeof e.message === "string" ? e.message : "";
  return statusError(e.status, serverMessage(e), options, ctx, sdkMessage);
}

function statusError(
  status: number,
  detail: string,
  options: ModelCallErrorOptions,
  ctx: ProviderErrorContext,
  sdkMessage = "",
) {
  const prefix =
    sdkMessage !== ""
      ? sdkMessage.replace(/[.\s]+$/, "")
      : `${ctx.displayName} request failed with status ${status}: ${detail}`;
  if (status === 401) {
    return new ModelAuthenticationError(`${prefix}. The API key was rejected: check ${ctx.apiKeyHint}.`, {
      ...options,
      code: "MODEL_AUTHENTICATION",
    });
  }
  if (status === 403) {
    return new ModelAuthenticationError(
      `${prefix}. The API key is not allowed to use model "${ctx.model}": check its permissions or pick another model.`,
      { ...options, code: "MODEL_AUTHENTICATION" },
    );
  }
  if (status === 404) {
    return new ModelNotFoundError(
      `${prefix}. Check the model name ("${ctx.model}")${ctx.baseURL ? ` and the baseURL (${ctx.baseURL})` : ""}.`,
      { ...options, code: "MODEL_NOT_FOUND" },
    );
  }
  if (status === 429) {
    return new ModelRateLimitError(
      `${prefix}. Slow down, raise \`maxRetries\`, or check the account's quota.`,
      {
        ...options,
        code: "MODEL_RATE_LIMIT",
      },
    );
  }
  if (status >= 500) return new ModelCallError(`${prefix}. The provider had a server error.`, options);
  return new ModelCallError(`${prefix}. The request was rejected; fix it before retrying.`, options);
}

/**
 * Whether a status is worth retrying: 408, 409, 429 and 5xx, unless the server says
 * otherwise with `x-should-retry`.
 *
 * @example
 * ```ts
 * isRetryableStatus(429, {}); // true
 * isRetryableStatus(400, {}); // false
 * ```
 */
export function isRetryableStatus(status: number, headers: Record<string, string>): boolean {
  const hint = headers["x-should-retry"];
  if (hint === "true") return true;
  if (hint === "false") return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function serverMessage(e: SdkErrorShape): string {
  const body = e.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const fromBody = body?.message ?? body?.error?.message;
  if (typeof fromBody === "string" && fromBody !== "") return fromBody.replace(/\.$/, "");
  if (typeof e.message === "string" && e.message !== "") return e.message.replace(/\.$/, "");
  return "no error message";
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = error; c !== undefined && c !== null && parts.length < 4; ) {
    const msg = (c as { message?: unknown }).message;
    const code = (c as { code?: unknown }).code;
    if (typeof msg === "string" && msg !== "" && !parts.includes(msg)) parts.push(msg);
    if (typeof code === "string" && !parts.includes(code)) parts.push(code);
    c = (c as { cause?: unknown }).cause;
  }
  return parts.length === 0 ? String(error) : parts.join(": ");
}

/** Copies `Headers` (or a plain record) into a record with lower-case names. */
export function headersToRecord(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof headers !== "object" || headers === null) return out;
  const maybe = headers as { forEach?: (fn: (value: string, key: string) => void) => void };
  if (typeof maybe.forEach === "function") {
    maybe.forEach((value, key) => {
      out[key.toLowerCase()] = value;
    });
    return out;
  }
  for (const [key, value] of Object.entries(headers)) {
    if (typeof value === "string") out[key.toLowerCase()] = value;
  }
  return out;
}

/**
 * The `TypeError` a non-streamed call fails with when the provider's answer is not a response
 * (`what` names the part it lacks): the LangChain.js provider packages fail there with a
 * `TypeError` too (reading the missing part), without retrying. The usual cause is a server that
 * sends an event stream to a request made with `stream: false`.
 */
export function notAResponseError(what: string, response: unknown, apiName: string): TypeError {
  const got =
    typeof response === "string"
      ? `text, not JSON (${/^(data|event|id|retry):/.test(response.trimStart()) ? "an event stream" : `${response.length} characters`})`
      : typeof response === "object" && response !== null
        ? "a JSON object without it"
        : String(response);
  return new TypeError(
    `The provider's answer to a non-streamed call has no ${what}: it sent ${got}. Check that the base URL points at ${apiName} and that the server honours \`stream: false\` (or set \`streaming: true\` to stream).`,
  );
}
