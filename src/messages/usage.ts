/**
 * Token counts of one model call, as providers report them. `input_tokens` counts the
 * prompt, `output_tokens` the completion and `total_tokens` both; the optional details break
 * them down (cache reads, reasoning tokens, modalities).
 *
 * @example
 * ```ts
 * const usage: UsageMetadata = { input_tokens: 12, output_tokens: 30, total_tokens: 42 };
 * new AIMessage({ content: "…", usage_metadata: usage });
 * ```
 */
export interface UsageMetadata {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_token_details?: InputTokenDetails | undefined;
  output_token_details?: OutputTokenDetails | undefined;
}

/**
 * Breakdown of {@link UsageMetadata.input_tokens}.
 *
 * @example
 * ```ts
 * const details: InputTokenDetails = { cache_read: 100, cache_creation: 20 };
 * ```
 */
export interface InputTokenDetails extends ModalityTokenDetails {
  cache_read?: number | undefined;
  cache_creation?: number | undefined;
}

/**
 * Breakdown of {@link UsageMetadata.output_tokens}.
 *
 * @example
 * ```ts
 * const details: OutputTokenDetails = { reasoning: 64 };
 * ```
 */
export interface OutputTokenDetails extends ModalityTokenDetails {
  reasoning?: number | undefined;
}

/**
 * Token counts per modality, shared by input and output details.
 *
 * @example
 * ```ts
 * const details: ModalityTokenDetails = { text: 10, image: 85 };
 * ```
 */
export interface ModalityTokenDetails {
  text?: number | undefined;
  image?: number | undefined;
  audio?: number | undefined;
  video?: number | undefined;
  document?: number | undefined;
}

const MODALITY_KEYS = ["audio", "image", "video", "document", "text"] as const;

type DetailKey = (typeof MODALITY_KEYS)[number] | "cache_read" | "cache_creation" | "reasoning";

function sumDetails<T extends Partial<Record<DetailKey, number | undefined>>>(
  a: T | undefined,
  b: T | undefined,
  extra: readonly DetailKey[],
): T {
  const out: Partial<Record<DetailKey, number>> = {};
  for (const key of [...MODALITY_KEYS, ...extra]) {
    const left = a?.[key];
    const right = b?.[key];
    if (left !== undefined || right !== undefined) out[key] = (left ?? 0) + (right ?? 0);
  }
  return out as T;
}

/**
 * Adds two usage records field by field (missing counts read as 0), as concatenating two
 * streamed chunks does. The result always carries both detail objects, possibly empty, as
 * in LangChain.js.
 *
 * @example
 * ```ts
 * mergeUsageMetadata(
 *   { input_tokens: 10, output_tokens: 1, total_tokens: 11 },
 *   { input_tokens: 0, output_tokens: 5, total_tokens: 5 },
 * ); // { input_tokens: 10, output_tokens: 6, total_tokens: 16, input_token_details: {}, output_token_details: {} }
 * ```
 */
export function mergeUsageMetadata(
  a: UsageMetadata | undefined,
  b: UsageMetadata | undefined,
): UsageMetadata {
  return {
    input_tokens: (a?.input_tokens ?? 0) + (b?.input_tokens ?? 0),
    output_tokens: (a?.output_tokens ?? 0) + (b?.output_tokens ?? 0),
    total_tokens: (a?.total_tokens ?? 0) + (b?.total_tokens ?? 0),
    input_token_details: sumDetails(a?.input_token_details, b?.input_token_details, [
      "cache_read",
      "cache_creation",
    ]),
    output_token_details: sumDetails(a?.output_token_details, b?.output_token_details, ["reasoning"]),
  };
}
