import { ModelConfigurationError } from "../../errors/configuration-errors.js";

/** The slice of the `@anthropic-ai/sdk` client this provider calls. */
export interface AnthropicClientLike {
  messages: {
    create(
      body: unknown,
      options?: { signal?: AbortSignal | undefined; headers?: Record<string, string> | undefined },
    ): PromiseLike<unknown>;
  };
  /** The beta endpoint (`betas` in the body become the `anthropic-beta` header). */
  beta: {
    messages: {
      create(
        body: unknown,
        options?: { signal?: AbortSignal | undefined; headers?: Record<string, string> | undefined },
      ): PromiseLike<unknown>;
    };
  };
}

/**
 * Options passed to the `@anthropic-ai/sdk` client (`ChatAnthropic`'s `clientOptions`):
 * `baseURL`, `defaultHeaders`, a custom `fetch`, … Retries are always off in the SDK.
 *
 * @example
 * ```ts
 * const clientOptions: AnthropicClientOptions = { baseURL: "https://my-proxy.example.com" };
 * ```
 */
export interface AnthropicClientOptions {
  baseURL?: string | undefined;
  defaultHeaders?: Record<string, string> | undefined;
  fetch?: typeof fetch | undefined;
  dangerouslyAllowBrowser?: boolean | undefined;
  [option: string]: unknown;
}

/**
 * Returns a function that creates the SDK client on first use (lazy `import()`).
 *
 * @example
 * ```ts
 * const getClient = lazyAnthropicClient({ apiKey: "sk-ant-…" });
 * ```
 */
export function lazyAnthropicClient(
  options: AnthropicClientOptions & { apiKey: string },
): () => Promise<AnthropicClientLike> {
  let client: Promise<AnthropicClientLike> | undefined;
  return () => {
    client ??= import("@anthropic-ai/sdk").then(
      (module) => new module.default({ ...options, maxRetries: 0 }) as unknown as AnthropicClientLike,
      (error: unknown) => {
        client = undefined;
        throw new ModelConfigurationError(
          'Could not load the "@anthropic-ai/sdk" package, which ChatAnthropic uses. ' +
            "Install it with `npm install @anthropic-ai/sdk`.",
          { cause: error },
        );
      },
    );
    return client;
  };
}
