import type {
  ChatModelStreamEvent,
  StreamContentBlock,
  StreamFinishReason,
  StreamUsage,
} from "../../chat-model/stream-events.js";
import { finishStreamBlock } from "../../chat-model/stream-events.js";

/** What the converter reads of a Chat Completions stream chunk. */
interface CompletionsChunk {
  id?: string;
  model?: string;
  service_tier?: string | null;
  system_fingerprint?: string | null;
  usage?: CompletionsUsage | null;
  /** Groq's OpenAI-compatible API reports a stream's usage here. */
  x_groq?: { usage?: CompletionsUsage | null } | null;
  choices?: {
    finish_reason?: string | null;
    logprobs?: unknown;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      function_call?: unknown;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
}

interface CompletionsUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { audio_tokens?: number | null; cached_tokens?: number | null } | null;
  completion_tokens_details?: { audio_tokens?: number | null; reasoning_tokens?: number | null } | null;
}

/** The protocol's finish reason for a Chat Completions `finish_reason`. */
function finishReasonOf(reason: string): StreamFinishReason {
  switch (reason) {
    case "length":
    case "max_tokens":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "content_filter";
    default:
      return "stop";
  }
}

/** A usage snapshot of the raw `usage`, with the token details the server reported. */
function usageOf(usage: CompletionsUsage): StreamUsage {
  const input: Record<string, number> = {};
  const output: Record<string, number> = {};
  const prompt = usage.prompt_tokens_details;
  const completion = usage.completion_tokens_details;
  if (prompt?.audio_tokens != null) input.audio = prompt.audio_tokens;
  if (prompt?.cached_tokens != null) input.cache_read = prompt.cached_tokens;
  if (completion?.audio_tokens != null) output.audio = completion.audio_tokens;
  if (completion?.reasoning_tokens != null) output.reasoning = completion.reasoning_tokens;
  return {
    input_tokens: usage.prompt_tokens ?? 0,
    output_tokens: usage.completion_tokens ?? 0,
    total_tokens: usage.total_tokens ?? 0,
    ...(Object.keys(input).length > 0 ? { input_token_details: input } : {}),
    ...(Object.keys(output).length > 0 ? { output_token_details: output } : {}),
  };
}

/**
 * ChatOpenAI's protocol events, made from the Chat Completions stream chunks as LangChain.js's
 * OpenAI completions converter makes them: the first chunk starts the message (its `id`); the
 * first one naming the model adds a `provider` event `stream_metadata` `{ model, service_tier }`;
 * reasoning, text and each tool call (by its `index`) open blocks in the order they come, tool
 * arguments as `tool-call-delta`s; `usage` is a snapshot when the server sends it (Groq's
 * `x_groq.usage` too); a
 * `function_call` delta and `logprobs` pass through as `provider` events. When the stream ends
 * every block finishes, then the message, with the mapped `finish_reason` as its reason and
 * `{ model_provider, model_name, system_fingerprint, service_tier, finish_reason }` as its
 * response metadata (and the raw `usage` when the finishing chunk carries it).
 */
export async function* openAIStreamEvents(
  source: AsyncIterable<unknown>,
  options: { streamUsage: boolean; provider: string },
): AsyncGenerator<ChatModelStreamEvent> {
  const blocks = new Map<number, StreamContentBlock>();
  const indexByKey = new Map<string, number>();
  let started = false;
  let metadataSent = false;
  let usage: StreamUsage | undefined;
  let reason: StreamFinishReason | undefined;
  let responseMetadata: Record<string, unknown> | undefined;
  const open = (key: string, initial: StreamContentBlock): { index: number; isNew: boolean } => {
    const known = indexByKey.get(key);
    if (known !== undefined) return { index: known, isNew: false };
    const index = indexByKey.size;
    indexByKey.set(key, index);
    blocks.set(index, { ...initial });
    return { index, isNew: true };
  };
  for await (const raw of source) {
    const data = raw as CompletionsChunk;
    if (!started) {
      started = true;
      yield { event: "message-start", id: data.id };
    }
    if (!metadataSent && (data.model || data.service_tier)) {
      metadataSent = true;
      yield {
        event: "provider",
        provider: options.provider,
        name: "stream_metadata",
        payload: { model: data.model, service_tier: data.service_tier },
      };
    }
    if (data.usage && options.streamUsage) {
      usage = usageOf(data.usage);
      yield { event: "usage", usage };
    }
    const groqUsage = data.x_groq?.usage;
    if (groqUsage && options.streamUsage) {
      usage = {
        input_tokens: groqUsage.prompt_tokens ?? 0,
        output_tokens: groqUsage.completion_tokens ?? 0,
        total_tokens: groqUsage.total_tokens ?? 0,
      };
      yield { event: "usage", usage };
    }
    const choice = data.choices?.[0];
    if (choice === undefined) continue;
    if (choice.finish_reason != null) {
      reason = finishReasonOf(choice.finish_reason);
      responseMetadata = {
        model_provider: "openai",
        model_name: data.model,
        system_fingerprint: data.system_fingerprint,
        service_tier: data.service_tier,
        finish_reason: choice.finish_reason,
        ...(data.usage ? { usage: data.usage } : {}),
      };
    }
    const delta = choice.delta;
    if (delta == null) continue;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === "string" && reasoning !== "") {
      const { index, isNew } = open("reasoning", { type: "reasoning", reasoning: "" });
      if (isNew) yield { event: "content-block-start", index, content: { type: "reasoning", reasoning: "" } };
      const block = blocks.get(index) as StreamContentBlock;
      block.reasoning = String(block.reasoning ?? "") + reasoning;
      yield { event: "content-block-delta", index, delta: { type: "reasoning-delta", reasoning } };
    }
    if (delta.content) {
      const { index, isNew } = open("text", { type: "text", text: "" });
      if (isNew) yield { event: "content-block-start", index, content: { type: "text", text: "" } };
      const block = blocks.get(index) as StreamContentBlock;
      block.text = String(block.text ?? "") + delta.content;
      yield { event: "content-block-delta", index, delta: { type: "text-delta", text: delta.content } };
    }
    for (const call of delta.tool_calls ?? []) {
      const toolIndex = call.index ?? 0;
      const initial: StreamContentBlock = {
        type: "tool_call_chunk",
        id: call.id,
        name: call.function?.name,
        args: "",
        index: toolIndex,
      };
      const { index, isNew } = open(`tool:${toolIndex}`, initial);
      if (isNew) yield { event: "content-block-start", index, content: { ...initial } };
      const block = blocks.get(index) as StreamContentBlock;
      if (call.id != null) block.id = call.id;
      if (call.function?.name != null) block.name = call.function.name;
      const args = call.function?.arguments;
      if (args) {
        block.args = String(block.args ?? "") + args;
        yield { event: "content-block-delta", index, delta: { type: "tool-call-delta", args } };
      }
    }
    if (delta.function_call)
      yield {
        event: "provider",
        provider: options.provider,
        name: "function_call",
        payload: delta.function_call,
      };
    if (choice.logprobs)
      yield { event: "provider", provider: options.provider, name: "logprobs", payload: choice.logprobs };
  }
  for (const [index, block] of blocks)
    yield { event: "content-block-finish", index, content: finishStreamBlock(block) };
  yield {
    event: "message-finish",
    reason,
    ...(usage !== undefined ? { usage } : {}),
    ...(responseMetadata !== undefined ? { responseMetadata } : {}),
  };
}
