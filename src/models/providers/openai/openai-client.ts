import { ModelConfigurationError } from "../../errors/configuration-errors.js";

/** The slice of the `openai` SDK client this provider calls. */
export interface OpenAIClientLike {
  chat: {
    completions: {
      create(
        body: unknown,
        options?: { signal?: AbortSignal | undefined; headers?: Record<string, string> | undefined },
      ): PromiseLike<unknown>;
    };
  };
  moderations: {
    create(body: unknown, options?: Record<string, unknown>): PromiseLike<unknown>;
  };
}

/**
 * Options passed to the `openai` SDK client (`ChatOpenAI`'s `configuration`): `baseURL`,
 * `organization`, `project`, `defaultHeaders`, `defaultQuery`, a custom `fetch`, … Retries
 * are always turned off in the SDK: agentgraph retries itself.
 *
 * @example
 * ```ts
 * const configuration: OpenAIClientOptions = { baseURL: "http://127.0.0.1:11434/v1" };
 * ```
 */
export interface OpenAIClientOptions {
  baseURL?: string | undefined;
  organization?: string | undefined;
  project?: string | undefined;
  defaultHeaders?: Record<string, string> | undefined;
  defaultQuery?: Record<string, string> | undefined;
  fetch?: typeof fetch | undefined;
  dangerouslyAllowBrowser?: boolean | undefined;
  [option: string]: unknown;
}

/**
 * Returns a function that creates the SDK client on first use, importing `openai` lazily so
 * that importing `agentgraph/models` stays fast and works without the SDK installed.
 *
 * @example
 * ```ts
 * const getClient = lazyOpenAIClient({ apiKey: "sk-…", baseURL: "https://api.openai.com/v1" });
 * const client = await getClient();
 * ```
 */
export function lazyOpenAIClient(
  options: OpenAIClientOptions & { apiKey: string },
): () => Promise<OpenAIClientLike> {
  let client: Promise<OpenAIClientLike> | undefined;
  return () => {
    client ??= import("openai").then(
      (module) => new module.default({ ...options, maxRetries: 0 }) as unknown as OpenAIClientLike,
      (error: unknown) => {
        client = undefined;
        throw new ModelConfigurationError(
          'Could not load the "openai" package, which ChatOpenAI uses. Install it with `npm install openai`.',
          { cause: error },
        );
      },
    );
    return client;
  };
}
