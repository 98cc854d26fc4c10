import type { ChatModelV1Content, ChatModelV1GenerateResult, JSONValue } from "../../spec/index.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import type { OpenAIChatResponse } from "./openai-wire.js";

/**
 * The provider-metadata key under which the URLs of the images an answer carries (OpenRouter's
 * `message.images`) travel to `ChatOpenAI`, which makes them image blocks of the content.
 */
export const RESPONSE_IMAGES = "__response_images";

/**
 * The provider-metadata key under which a message's `audio` and legacy `function_call` travel
 * to `ChatOpenAI`, which puts them in the answer's `additional_kwargs`.
 */
export const RESPONSE_KWARGS = "__response_kwargs";

/**
 * Maps a non-streaming Chat Completions response to the spec result: text, refusal,
 * reasoning (`reasoning_content` / `reasoning` from compatible servers) and tool calls with
 * their raw argument text; the response id and model; usage; `system_fingerprint` and
 * LangChain's `tokenUsage` as provider metadata. With several choices (`n` above 1), the first
 * choice's result holds the others as `alternatives`.
 *
 * @example
 * ```ts
 * mapOpenAIResponse(await res.json()).content; // [{ type: "text", text: "Hello!" }]
 * ```
 */
export function mapOpenAIResponse(response: OpenAIChatResponse, provider: string): ChatModelV1GenerateResult {
  const [first, ...others] = response.choices.map((choice) => mapChoice(response, choice, provider));
  if (first === undefined) return mapChoice(response, undefined, provider);
  // the other choices of an `n` above 1 (LangChain.js makes a generation of each)
  if (others.length > 0) first.alternatives = others;
  return first;
}

/** The spec result of one choice of a response (each with the response's usage and metadata). */
function mapChoice(
  response: OpenAIChatResponse,
  choice: OpenAIChatResponse["choices"][number] | undefined,
  provider: string,
): ChatModelV1GenerateResult {
  const message = choice?.message;
  const content: ChatModelV1Content[] = [];
  const reasoning = message?.reasoning_content ?? message?.reasoning;
  if (typeof reasoning === "string" && reasoning !== "") content.push({ type: "reasoning", text: reasoning });
  if (typeof message?.content === "string" && message.content !== "") {
    content.push({ type: "text", text: message.content });
  }
  if (typeof message?.refusal === "string") content.push({ type: "refusal", text: message.refusal });
  for (const [i, call] of (message?.tool_calls ?? []).entries()) {
    content.push({
      type: "tool-call",
      toolCallId: call.id ?? `call_${i}_${crypto.randomUUID()}`,
      toolName: call.function?.name ?? "",
      input: call.function?.arguments ?? "",
    });
  }
  const usage = mapOpenAIUsage(response.usage);
  // LangChain.js's keys: `tokenUsage`, the choice's `finish_reason` and `logprobs`, who answered,
  // a copy of the raw `usage`, and `system_fingerprint` only when the server set one. They are
  // written in its order: `finish_reason`, `model_provider` and `model_name`, which the adapter
  // sets again, keep the places they are given here.
  const metadata: Record<string, JSONValue> = {};
  // the counts of `usage_metadata`: a count the server left out or reported as 0 is `undefined`
  metadata.tokenUsage = {
    promptTokens: response.usage?.prompt_tokens || undefined,
    completionTokens: response.usage?.completion_tokens || undefined,
    totalTokens: response.usage?.total_tokens || undefined,
  } as Record<string, JSONValue>;
  if (choice?.finish_reason) metadata.finish_reason = choice.finish_reason;
  if (choice?.logprobs) metadata.logprobs = choice.logprobs;
  metadata.model_provider = provider;
  if (response.model !== undefined) metadata.model_name = response.model;
  metadata.usage = { ...(response.usage as Record<string, JSONValue> | null | undefined) };
  if (response.system_fingerprint) metadata.system_fingerprint = response.system_fingerprint;
  const kwargs: Record<string, JSONValue> = {};
  if (message?.function_call) kwargs.function_call = message.function_call as JSONValue;
  if (message?.audio) kwargs.audio = message.audio as JSONValue;
  if (Object.keys(kwargs).length > 0) metadata[RESPONSE_KWARGS] = kwargs;
  const images = message?.images;
  if (Array.isArray(images)) {
    metadata[RESPONSE_IMAGES] = images.flatMap((image) =>
      typeof image?.image_url?.url === "string" ? [image.image_url.url] : [],
    );
  }
  const result: ChatModelV1GenerateResult = {
    content,
    finishReason: mapOpenAIFinishReason(choice?.finish_reason),
    usage,
    response: responseMetadata(response),
    providerMetadata: { [provider]: metadata },
  };
  return result;
}

/** The response id, model and creation time of a response or chunk. */
export function responseMetadata(response: { id?: string; model?: string; created?: number }): {
  id?: string;
  modelId?: string;
  timestamp?: Date;
} {
  const out: { id?: string; modelId?: string; timestamp?: Date } = {};
  if (response.id !== undefined) out.id = response.id;
  if (response.model !== undefined) out.modelId = response.model;
  if (response.created !== undefined) out.timestamp = new Date(response.created * 1000);
  return out;
}
