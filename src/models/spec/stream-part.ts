import type { ChatModelV1FinishReason } from "./finish-reason.js";
import type { ChatModelV1ProviderMetadata } from "./provider-metadata.js";
import type { ChatModelV1Usage } from "./usage.js";

/**
 * One event of a streamed call. Blocks of text, reasoning and tool input each go
 * `*-start` → `*-delta`… → `*-end` under an `id`, so interleaved blocks stay apart; tool
 * input also carries the provider's `index`. A stream ends with one `finish` part. Errors the
 * provider reports inside the stream arrive as `error` parts (transport failures throw). A
 * provider may also pass each of its own events on, as it came, in a `raw` part sent before
 * the parts made from it, for a chunk mapper of its own; other consumers ignore them.
 *
 * @example
 * ```ts
 * for await (const part of model.doStream(options)) {
 *   if (part.type === "text-delta") process.stdout.write(part.delta);
 * }
 * ```
 */
export type ChatModelV1StreamPart =
  | {
      type: "response-metadata";
      id?: string;
      modelId?: string;
      timestamp?: Date;
      providerMetadata?: ChatModelV1ProviderMetadata;
    }
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string }
  | { type: "reasoning-start"; id: string; redactedData?: string }
  | { type: "reasoning-delta"; id: string; delta: string }
  | { type: "reasoning-end"; id: string; signature?: string }
  | { type: "refusal-delta"; delta: string }
  | { type: "tool-input-start"; id: string; index: number; toolName: string }
  | { type: "tool-input-delta"; id: string; index: number; delta: string }
  | { type: "tool-input-end"; id: string; index: number }
  | {
      type: "finish";
      finishReason: ChatModelV1FinishReason;
      usage: ChatModelV1Usage;
      providerMetadata?: ChatModelV1ProviderMetadata;
    }
  | { type: "error"; error: unknown }
  | { type: "raw"; rawValue: unknown };
