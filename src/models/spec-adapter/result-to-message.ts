import {
  type AdditionalKwargs,
  AIMessage,
  type ContentBlock,
  type InvalidToolCall,
  type MessageContent,
  type ResponseMetadata,
  type ToolCall,
} from "../../messages/index.js";
import type {
  ChatModelV1FinishReason,
  ChatModelV1GenerateResult,
  ChatModelV1ProviderMetadata,
} from "../spec/index.js";
import { parseToolInput } from "./parse-tool-input.js";
import { usageToMetadata } from "./usage-to-metadata.js";

/**
 * Where reasoning goes in a message: Anthropic-style `thinking` content blocks (kept so they
 * can be sent back with their signature), or `additional_kwargs.reasoning_content` (as the
 * OpenAI-compatible servers that return reasoning text do).
 *
 * @example
 * ```ts
 * const format: ReasoningFormat = "content-blocks";
 * ```
 */
export type ReasoningFormat = "content-blocks" | "additional-kwargs";

/** Who answered, for the message metadata. */
export interface MessageContext {
  provider: string;
  /** Model name used when the response does not say. */
  modelName: string;
  reasoningFormat: ReasoningFormat;
  /**
   * `usage_metadata` in `@langchain/openai`'s form: it always has `input_token_details` and
   * `output_token_details` (`{}` when none), in that package's key order.
   */
  openAIUsageForm?: boolean | undefined;
  /** Tool calls list `type` before `id` (LangChain.js's OpenAI parser's key order). */
  toolCallTypeFirst?: boolean | undefined;
}

/**
 * Builds the `AIMessage` of a non-streaming result: text content (content blocks when
 * thinking blocks are kept), tool calls (malformed ones in `invalid_tool_calls`), a refusal
 * in `additional_kwargs.refusal`, the provider's response id as message id, usage, and
 * `finish_reason`, `model_name`, `model_provider` plus the provider's metadata in
 * `response_metadata`.
 *
 * @example
 * ```ts
 * resultToMessage(result, { provider: "openai", modelName: "gpt-4.1-mini", reasoningFormat: "additional-kwargs" });
 * ```
 */
export function resultToMessage(result: ChatModelV1GenerateResult, ctx: MessageContext): AIMessage {
  const blocks: ContentBlock[] = [];
  let text = "";
  let keepBlocks = false;
  const additional: AdditionalKwargs = {};
  const toolCalls: ToolCall[] = [];
  const invalid: InvalidToolCall[] = [];
  for (const part of result.content) {
    switch (part.type) {
      case "text":
        text += part.text;
        blocks.push({ type: "text", text: part.text });
        break;
      case "reasoning":
        if (ctx.reasoningFormat === "additional-kwargs") {
          additional.reasoning_content = `${(additional.reasoning_content as string | undefined) ?? ""}${part.text}`;
        } else {
          keepBlocks = true;
          blocks.push(
            part.redactedData !== undefined
              ? { type: "redacted_thinking", data: part.redactedData }
              : {
                  type: "thinking",
                  thinking: part.text,
                  ...(part.signature === undefined ? {} : { signature: part.signature }),
                },
          );
        }
        break;
      case "refusal":
        additional.refusal = part.text;
        break;
      case "tool-call": {
        const parsed = parseToolInput(part.toolCallId, part.toolName, part.input, ctx.toolCallTypeFirst);
        if ("toolCall" in parsed) toolCalls.push(parsed.toolCall);
        else invalid.push(parsed.invalidToolCall);
        break;
      }
    }
  }
  const content: MessageContent = keepBlocks ? blocks : text;
  return new AIMessage({
    content,
    id: result.response?.id,
    tool_calls: toolCalls,
    invalid_tool_calls: invalid,
    additional_kwargs: additional,
    usage_metadata: usageToMetadata(result.usage, { openAIForm: ctx.openAIUsageForm, wholeAnswer: true }),
    response_metadata: responseMetadataOf(
      ctx,
      result.finishReason,
      result.response?.modelId,
      result.providerMetadata,
    ),
  });
}

/**
 * The `response_metadata` of a finished call: provider metadata, then `model_provider`,
 * `model_name` and the raw `finish_reason`.
 */
export function responseMetadataOf(
  ctx: MessageContext,
  finishReason: ChatModelV1FinishReason | undefined,
  modelId: string | undefined,
  providerMetadata: ChatModelV1ProviderMetadata | undefined,
): ResponseMetadata {
  const metadata: ResponseMetadata = { ...providerMetadata?.[ctx.provider] };
  metadata.model_provider = ctx.provider;
  metadata.model_name = modelId ?? ctx.modelName;
  if (finishReason !== undefined) metadata.finish_reason = finishReason.raw ?? null;
  return metadata;
}
