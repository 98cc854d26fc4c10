import { toStrictJsonSchema } from "../../../tools/index.js";
import type { ChatModelV1CallOptions } from "../../spec/index.js";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import type { OpenAIChatRequest } from "./openai-wire.js";
import { prepareOpenAITools } from "./prepare-openai-tools.js";

/** Model-level settings of the OpenAI chat model (per-call options come from the call). */
export interface OpenAIChatSettings {
  frequencyPenalty?: number | undefined;
  presencePenalty?: number | undefined;
  seed?: number | undefined;
  /** `reasoning_effort` for reasoning models (`"low" | "medium" | "high"`, …); not sent to others. */
  reasoningEffort?: string | undefined;
  /** End-user id (`user`). */
  user?: string | undefined;
  /** Ask for usage on streamed calls (`stream_options.include_usage`); default true. */
  streamUsage?: boolean | undefined;
  /** Return token log probabilities (`logprobs`, `top_logprobs`). */
  logprobs?: boolean | undefined;
  topLogprobs?: number | undefined;
  /** Number of choices to generate (`n`); the answer is the first. */
  n?: number | undefined;
  logitBias?: Record<string, number> | undefined;
  /** `prompt_cache_key`, `prompt_cache_retention`, `prompt_cache_options`, `verbosity` and `service_tier`. */
  promptCacheKey?: string | undefined;
  promptCacheRetention?: string | undefined;
  promptCacheOptions?: Record<string, unknown> | undefined;
  /** The spoken answer's settings (`audio`) and the answer's `modalities`. */
  audio?: Record<string, unknown> | undefined;
  modalities?: string[] | undefined;
  verbosity?: string | undefined;
  serviceTier?: string | undefined;
  /** Extra request-body fields, sent as given (e.g. vLLM's `top_k`). */
  modelKwargs?: Record<string, unknown> | undefined;
}

/**
 * Reasoning models take `max_completion_tokens` instead of `max_tokens` and `reasoning_effort`:
 * the o-series, and `gpt-5…` / `gpt-6…` except their `-chat` variants (LangChain.js's rule).
 */
export function isReasoningModel(model: string): boolean {
  if (/^o\d/.test(model)) return true;
  return /^gpt-[56]/.test(model) && !/^gpt-[56]-chat/.test(model);
}

/** `"in-memory"` is the API's `"in_memory"`, as LangChain.js sends it; other values as given. */
export function normalizePromptCacheRetention(retention: unknown): unknown {
  return retention === "in-memory" ? "in_memory" : retention;
}

/**
 * Builds the Chat Completions request body. Only what is set is sent, so a plain call with
 * tools is exactly `{ messages, model, stream, tools }`.
 *
 * @example
 * ```ts
 * getOpenAIArgs("gpt-4.1-mini", {}, { prompt }, false);
 * // { model: "gpt-4.1-mini", messages: [...], stream: false }
 * ```
 */
export function getOpenAIArgs(
  modelId: string,
  settings: OpenAIChatSettings,
  options: ChatModelV1CallOptions,
  stream: boolean,
): OpenAIChatRequest {
  const body: OpenAIChatRequest = {
    model: modelId,
    messages: convertToOpenAIMessages(options.prompt),
    stream,
    ...prepareOpenAITools(options),
  };
  if (stream && settings.streamUsage !== false) body.stream_options = { include_usage: true };
  if (options.maxOutputTokens !== undefined) {
    if (isReasoningModel(modelId)) body.max_completion_tokens = options.maxOutputTokens;
    else body.max_tokens = options.maxOutputTokens;
  }
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (options.stopSequences !== undefined && options.stopSequences.length > 0)
    body.stop = options.stopSequences;
  if (settings.frequencyPenalty !== undefined) body.frequency_penalty = settings.frequencyPenalty;
  if (settings.presencePenalty !== undefined) body.presence_penalty = settings.presencePenalty;
  if (settings.logprobs !== undefined) body.logprobs = settings.logprobs;
  if (settings.topLogprobs !== undefined) body.top_logprobs = settings.topLogprobs;
  if (settings.n !== undefined) body.n = settings.n;
  if (settings.logitBias !== undefined) body.logit_bias = settings.logitBias;
  if (settings.seed !== undefined) body.seed = settings.seed;
  if (settings.reasoningEffort !== undefined && isReasoningModel(modelId)) {
    body.reasoning_effort = settings.reasoningEffort;
  }
  if (settings.user !== undefined) body.user = settings.user;
  if (settings.promptCacheKey !== undefined) body.prompt_cache_key = settings.promptCacheKey;
  if (settings.promptCacheRetention !== undefined) {
    body.prompt_cache_retention = normalizePromptCacheRetention(settings.promptCacheRetention);
  }
  if (settings.promptCacheOptions !== undefined) body.prompt_cache_options = settings.promptCacheOptions;
  if (settings.audio !== undefined) body.audio = settings.audio;
  if (settings.modalities !== undefined) body.modalities = settings.modalities;
  if (settings.verbosity !== undefined) body.verbosity = settings.verbosity;
  if (settings.serviceTier !== undefined) body.service_tier = settings.serviceTier;
  const format = options.responseFormat;
  if (format?.type === "text") body.response_format = { type: "text" };
  if (format?.type === "json") {
    if (format.schema === undefined) {
      body.response_format = { type: "json_object" };
    } else {
      const jsonSchema: {
        name: string;
        description?: string;
        schema: Record<string, unknown>;
        strict?: boolean;
      } = {
        name: format.name ?? "response",
        schema: format.schema,
      };
      if (format.description !== undefined) jsonSchema.description = format.description;
      if (format.strict !== undefined) jsonSchema.strict = format.strict;
      body.response_format = { type: "json_schema", json_schema: jsonSchema };
    }
  }
  Object.assign(body, settings.modelKwargs, options.providerOptions?.openai);
  // As in LangChain.js, the token limit and reasoning effort the model was given win over
  // `modelKwargs`.
  if (options.maxOutputTokens !== undefined) {
    body[isReasoningModel(modelId) ? "max_completion_tokens" : "max_tokens"] = options.maxOutputTokens;
  }
  if (
    settings.reasoningEffort !== undefined &&
    isReasoningModel(modelId) &&
    options.providerOptions?.openai?.reasoning_effort === undefined
  ) {
    body.reasoning_effort = settings.reasoningEffort;
  }
  // As @langchain/openai: a request that is not streamed and asks for a JSON Schema answer sends
  // its function tools strict (closed schemas), unless the call or the tool says `strict: false`
  // (createAgent's providerStrategy with tools asks for both).
  if (!stream && body.response_format?.type === "json_schema" && body.tools !== undefined) {
    body.tools = body.tools.map((tool) =>
      tool.type === "function" && tool.function.strict === undefined
        ? {
            ...tool,
            function: {
              ...tool.function,
              parameters: toStrictJsonSchema(tool.function.parameters),
              strict: true,
            },
          }
        : tool,
    );
  }
  return body;
}
