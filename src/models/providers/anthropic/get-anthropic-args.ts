import { InvalidArgumentError } from "../../../shared/index.js";
import type { ChatModelV1CallOptions } from "../../spec/index.js";
import type { AnthropicRequest } from "./anthropic-wire.js";
import { closeJsonSchema } from "./close-json-schema.js";
import type { AnthropicPayload } from "./format-anthropic-messages.js";
import { prepareAnthropicTools } from "./prepare-anthropic-tools.js";

/** The `providerOptions` key under which ChatAnthropic passes its formatted messages. */
export const ANTHROPIC_PAYLOAD = "anthropicPayload";
/** The `providerOptions` key of a call's beta features (`{ betas: [...] }`). */
export const ANTHROPIC_BETAS = "anthropicBetas";

/**
 * Models that think adaptively only (as `@langchain/anthropic` 1.5.11 lists them): they take no
 * sampling settings and no `thinking.type: "enabled"` or `budget_tokens`.
 */
const ADAPTIVE_ONLY_PREFIXES = [
  "claude-opus-4-7",
  "claude-opus-4-8",
  "claude-opus-5",
  "claude-sonnet-5",
  "claude-fable-5",
  "claude-mythos-5",
  "claude-mythos-preview",
];

/** Whether `model` thinks adaptively only (see {@link ADAPTIVE_ONLY_PREFIXES}). */
export function isAdaptiveOnlyModel(model: string): boolean {
  return ADAPTIVE_ONLY_PREFIXES.some((prefix) => model.startsWith(prefix));
}

/** Model-level settings of the Anthropic chat model. */
export interface AnthropicChatSettings {
  /** Used when the call sets no `maxOutputTokens` (the API requires a value). */
  maxTokens: number;
  topK?: number | undefined;
  /** Extended thinking, e.g. `{ type: "enabled", budget_tokens: 2048 }`. */
  thinking?: AnthropicRequest["thinking"] | undefined;
  /** Extra request-body fields, sent as given. */
  invocationKwargs?: Record<string, unknown> | undefined;
}

/**
 * Builds the Messages API request body.
 *
 * @example
 * ```ts
 * getAnthropicArgs("claude-sonnet-4-6", { maxTokens: 2048 }, { prompt: [], providerOptions: { [ANTHROPIC_PAYLOAD]: formatAnthropicMessages(messages) } }, false);
 * // { model: "claude-sonnet-4-6", max_tokens: 2048, messages: [...], stream: false }
 * ```
 */
export function getAnthropicArgs(
  modelId: string,
  settings: AnthropicChatSettings,
  options: ChatModelV1CallOptions,
  stream: boolean,
): AnthropicRequest {
  // ChatAnthropic converts its messages itself (formatAnthropicMessages), keeping block fields
  // the neutral prompt has no place for; it sends no neutral prompt
  const formatted = options.providerOptions?.[ANTHROPIC_PAYLOAD] as AnthropicPayload | undefined;
  if (formatted === undefined) {
    throw new InvalidArgumentError(
      "An Anthropic request needs the messages ChatAnthropic formats (providerOptions[ANTHROPIC_PAYLOAD]); call the model through ChatAnthropic.",
    );
  }
  const { system, messages } = formatted;
  const body: AnthropicRequest = {
    model: modelId,
    max_tokens: options.maxOutputTokens ?? settings.maxTokens,
    messages,
    ...prepareAnthropicTools(options),
  };
  if (system !== undefined) body.system = system;
  // `stream: false` is sent too, as @langchain/anthropic sends it
  body.stream = stream;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (
    settings.topK !== undefined &&
    (settings.thinking === undefined || settings.thinking.type === "disabled") &&
    !isAdaptiveOnlyModel(modelId)
  ) {
    body.top_k = settings.topK;
  }
  if (options.stopSequences !== undefined && options.stopSequences.length > 0) {
    body.stop_sequences = options.stopSequences;
  }
  if (settings.thinking !== undefined) body.thinking = settings.thinking;

  Object.assign(body, settings.invocationKwargs, options.providerOptions?.anthropic);
  // a JSON Schema response format is Anthropic's structured output (output_config.format)
  const format = options.responseFormat;
  if (format?.type === "json" && format.schema !== undefined) {
    const schema = closeJsonSchema(format.schema);
    body.output_config = { ...(body.output_config as object), format: { type: "json_schema", schema } };
  }
  return body;
}
