import { InvalidArgumentError } from "../../../shared/index.js";
import type { ProviderErrorContext } from "../../errors/from-sdk-error.js";
import { modelErrorFromSdk, notAResponseError } from "../../errors/from-sdk-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import type {
  ChatModelV1,
  ChatModelV1CallOptions,
  ChatModelV1GenerateResult,
  ChatModelV1StreamPart,
} from "../../spec/index.js";
import { sdkRequestOptions, sdkStream } from "../sdk-call.js";
import type { AnthropicClientLike } from "./anthropic-client.js";
import { AnthropicStreamParts, streamsContentBlocks } from "./anthropic-stream-parts.js";
import type { AnthropicRequest, AnthropicResponse, AnthropicStreamEvent } from "./anthropic-wire.js";
import { ANTHROPIC_BETAS, type AnthropicChatSettings, getAnthropicArgs } from "./get-anthropic-args.js";
import { mapAnthropicResponse } from "./map-anthropic-response.js";

/** How {@link AnthropicChatLanguageModel} reaches its server. */
export interface AnthropicChatModelConfig {
  settings: AnthropicChatSettings;
  client: () => Promise<AnthropicClientLike>;
  errorContext: ProviderErrorContext;
}

/**
 * The Anthropic Messages API provider, implementing the v1 model spec on top of the official
 * `@anthropic-ai/sdk` (with the SDK's own retries off).
 *
 * @example
 * ```ts
 * const model = new AnthropicChatLanguageModel("claude-sonnet-4-6", config);
 * for await (const part of model.doStream({ prompt })) console.log(part.type);
 * ```
 */
export class AnthropicChatLanguageModel implements ChatModelV1 {
  readonly specificationVersion = "v1" as const;
  readonly provider = "anthropic";

  constructor(
    readonly modelId: string,
    private readonly config: AnthropicChatModelConfig,
  ) {}

  async doGenerate(options: ChatModelV1CallOptions): Promise<ChatModelV1GenerateResult> {
    if (options.responseFormat?.type === "json" && options.responseFormat.schema === undefined) {
      throw unsupportedResponseFormat();
    }
    const body = getAnthropicArgs(this.modelId, this.config.settings, options, false);
    let response: unknown;
    try {
      const client = await this.config.client();
      response = await create(client, body, options);
    } catch (error) {
      throw withAnthropicCode(modelErrorFromSdk(error, this.config.errorContext));
    }
    // a body without content blocks (an SSE stream sent to a non-streamed request, say) is not
    // a transient failure: no retry, and a `TypeError` as from `@langchain/anthropic` (which
    // reads the length of the missing `content`)
    const content =
      typeof response === "object" && response !== null ? Reflect.get(response, "content") : undefined;
    if (!Array.isArray(content))
      throw notAResponseError("`content` list", response, "the Anthropic Messages API");
    return mapAnthropicResponse(response as AnthropicResponse);
  }

  async *doStream(options: ChatModelV1CallOptions): AsyncGenerator<ChatModelV1StreamPart> {
    if (options.responseFormat?.type === "json" && options.responseFormat.schema === undefined) {
      throw unsupportedResponseFormat();
    }
    const body = getAnthropicArgs(this.modelId, this.config.settings, options, true);
    const parts = new AnthropicStreamParts(streamsContentBlocks(body));
    const events = sdkStream(async () => {
      const client = await this.config.client();
      return (await create(client, body, options)) as AsyncIterable<AnthropicStreamEvent>;
    }, this.config.errorContext);
    try {
      for await (const event of events) yield* parts.push(event);
    } catch (error) {
      throw withAnthropicCode(error);
    }
    yield* parts.finish();
  }
}

/**
 * Gives a 400 the LangChain error code `@langchain/anthropic` gives it: `CONTEXT_OVERFLOW` when
 * the prompt is too long, `INVALID_TOOL_RESULTS` when the API's message is about tools.
 */
function withAnthropicCode(error: unknown): unknown {
  if (!(error instanceof ModelCallError) || error.status !== 400) return error;
  const body = JSON.stringify(error.responseBody ?? "");
  const code = body.includes("prompt is too long")
    ? "CONTEXT_OVERFLOW"
    : body.includes("tool")
      ? "INVALID_TOOL_RESULTS"
      : undefined;
  if (code !== undefined) (error as { code: string }).code = code;
  return error;
}

/** Sends the request, on the beta endpoint when the call has beta features. */
function create(client: AnthropicClientLike, body: AnthropicRequest, options: ChatModelV1CallOptions) {
  const betas = (options.providerOptions?.[ANTHROPIC_BETAS] as { betas?: string[] } | undefined)?.betas;
  return betas !== undefined && betas.length > 0
    ? client.beta.messages.create({ ...body, betas }, sdkRequestOptions(options))
    : client.messages.create(body, sdkRequestOptions(options));
}

function unsupportedResponseFormat(): Error {
  return new InvalidArgumentError(
    "ChatAnthropic does not support a JSON response format without a schema; use " +
      "withStructuredOutput(schema) instead.",
  );
}
