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
import { getOpenAIArgs, type OpenAIChatSettings } from "./get-openai-args.js";
import { mapOpenAIResponse } from "./map-openai-response.js";
import type { OpenAIClientLike } from "./openai-client.js";
import { OpenAIStreamParts } from "./openai-stream-parts.js";
import type { OpenAIChatChunk, OpenAIChatResponse } from "./openai-wire.js";

/** How {@link OpenAIChatLanguageModel} reaches its server. */
export interface OpenAIChatModelConfig {
  /** Provider name reported in metadata: `"openai"`, or e.g. `"ollama"` for a compatible server. */
  provider: string;
  settings: OpenAIChatSettings;
  client: () => Promise<OpenAIClientLike>;
  errorContext: ProviderErrorContext;
}

/**
 * The OpenAI Chat Completions provider, implementing the v1 model spec on top of the official
 * `openai` SDK (with the SDK's own retries off). Errors are turned into agentgraph errors;
 * retries, callbacks and message conversion happen in the `ChatOpenAI` surface.
 *
 * @example
 * ```ts
 * const model = new OpenAIChatLanguageModel("gpt-4.1-mini", config);
 * const result = await model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] });
 * ```
 */
export class OpenAIChatLanguageModel implements ChatModelV1 {
  readonly specificationVersion = "v1" as const;
  readonly provider: string;

  constructor(
    readonly modelId: string,
    private readonly config: OpenAIChatModelConfig,
  ) {
    this.provider = config.provider;
  }

  async doGenerate(options: ChatModelV1CallOptions): Promise<ChatModelV1GenerateResult> {
    const body = getOpenAIArgs(this.modelId, this.config.settings, options, false);
    let response: unknown;
    try {
      const client = await this.config.client();
      response = await client.chat.completions.create(body, sdkRequestOptions(options));
    } catch (error) {
      throw withOpenAICode(modelErrorFromSdk(error, this.config.errorContext));
    }
    // a body without choices (an SSE stream sent to a non-streamed request, say) is not a
    // transient failure: no retry, and a `TypeError` as from `@langchain/openai` (which reads the
    // message of a first generation that is not there)
    const choices =
      typeof response === "object" && response !== null ? Reflect.get(response, "choices") : undefined;
    if (!Array.isArray(choices) || choices.length === 0) {
      throw notAResponseError("`choices`", response, "an OpenAI-compatible Chat Completions API");
    }
    return mapOpenAIResponse(response as OpenAIChatResponse, this.provider);
  }

  async *doStream(options: ChatModelV1CallOptions): AsyncGenerator<ChatModelV1StreamPart> {
    const body = getOpenAIArgs(this.modelId, this.config.settings, options, true);
    const parts = new OpenAIStreamParts(this.provider);
    const chunks = sdkStream(async () => {
      const client = await this.config.client();
      return (await client.chat.completions.create(
        body,
        sdkRequestOptions(options),
      )) as AsyncIterable<OpenAIChatChunk>;
    }, this.config.errorContext);
    try {
      for await (const chunk of chunks) yield* parts.push(chunk);
    } catch (error) {
      throw withOpenAICode(error);
    }
    yield* parts.finish();
  }
}

/**
 * Gives a 400 about `tool_calls` the LangChain error code `@langchain/openai` gives it,
 * `INVALID_TOOL_RESULTS` (a tool result without its call, or the other way round).
 */
function withOpenAICode(error: unknown): unknown {
  if (!(error instanceof ModelCallError) || error.status !== 400) return error;
  if (
    JSON.stringify(error.responseBody ?? "").includes("tool_calls") ||
    error.message.includes("tool_calls")
  ) {
    (error as { code: string }).code = "INVALID_TOOL_RESULTS";
  }
  return error;
}
