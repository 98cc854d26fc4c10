import type { ChatModelV1StreamPart, ChatModelV1Usage, JSONValue } from "../../spec/index.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { responseMetadata } from "./map-openai-response.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import type { OpenAIChatChunk } from "./openai-wire.js";

interface ToolCallState {
  id: string;
  ended: boolean;
}

/**
 * Turns streamed Chat Completions chunks into spec stream parts. Tool-call deltas are
 * tracked by their `index` (the id and name arrive only on the first delta of a call);
 * usage arrives on the last chunk when `stream_options.include_usage` was requested. Each
 * chunk is also passed on as it came, in a `raw` part after the parts made from it (so a
 * consumer knows where one server event's parts end).
 *
 * Feed every chunk to {@link OpenAIStreamParts.push}, then call
 * {@link OpenAIStreamParts.finish} once the stream ends.
 *
 * @example
 * ```ts
 * const parts = new OpenAIStreamParts("openai");
 * for await (const chunk of sdkStream) yield* parts.push(chunk);
 * yield* parts.finish();
 * ```
 */
export class OpenAIStreamParts {
  private metadataSent = false;
  private textOpen = false;
  private reasoningOpen = false;
  /** The first choice's tool calls, by their `index`. */
  private readonly toolCalls = new Map<number, ToolCallState>();
  /** The other choices' tool calls (`n` above 1), by choice, then by their `index`. */
  private otherToolCalls: Map<number, Map<number, ToolCallState>> | undefined;
  private finishReason: string | null | undefined;
  private usage: ChatModelV1Usage = {};
  private rawUsage: Record<string, JSONValue> = {};
  private systemFingerprint: string | null | undefined;
  private serviceTier: string | null | undefined;

  constructor(private readonly provider: string) {}

  *push(chunk: OpenAIChatChunk): Generator<ChatModelV1StreamPart> {
    if (!this.metadataSent) {
      this.metadataSent = true;
      yield { type: "response-metadata", ...responseMetadata(chunk) };
    }
    if (chunk.usage) {
      this.usage = mapOpenAIUsage(chunk.usage);
      this.rawUsage = { ...(chunk.usage as Record<string, JSONValue>) };
    }
    const choice = chunk.choices[0];
    if (choice?.finish_reason) {
      // as LangChain.js: the answer's fingerprint and tier are those of the event that finished it
      this.finishReason = choice.finish_reason;
      this.systemFingerprint = chunk.system_fingerprint;
      this.serviceTier = chunk.service_tier;
    }
    const delta = choice?.delta;
    if (choice !== undefined && delta !== undefined) {
      let emitted = false;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === "string" && reasoning !== "") {
        if (!this.reasoningOpen) {
          this.reasoningOpen = true;
          yield { type: "reasoning-start", id: "reasoning-0" };
        }
        yield { type: "reasoning-delta", id: "reasoning-0", delta: reasoning };
        emitted = true;
      }
      if (typeof delta.content === "string" && delta.content !== "") {
        if (!this.textOpen) {
          this.textOpen = true;
          yield { type: "text-start", id: "text-0" };
        }
        yield { type: "text-delta", id: "text-0", delta: delta.content };
        emitted = true;
      }
      if (typeof delta.refusal === "string" && delta.refusal !== "") {
        yield { type: "refusal-delta", delta: delta.refusal };
        emitted = true;
      }
      for (const [position, call] of (delta.tool_calls ?? []).entries()) {
        const index = call.index ?? position;
        // each choice numbers its tool calls from 0
        const calls = choice.index ? this.toolCallsOf(choice.index) : this.toolCalls;
        let state = calls.get(index);
        if (state === undefined) {
          // Some compatible servers omit the id; make one so the call can still be answered.
          state = { id: call.id ?? `call_${index}_${crypto.randomUUID()}`, ended: false };
          calls.set(index, state);
          yield { type: "tool-input-start", id: state.id, index, toolName: call.function?.name ?? "" };
        }
        const args = call.function?.arguments;
        if (typeof args === "string" && args !== "") {
          yield { type: "tool-input-delta", id: state.id, index, delta: args };
        }
        emitted = true;
      }
      // LangChain.js yields a chunk for every event with a delta (the opening `role` one too); the
      // event that carries `finish_reason` is the finish part.
      if (!emitted && !choice.finish_reason) {
        if (!this.textOpen) {
          this.textOpen = true;
          yield { type: "text-start", id: "text-0" };
        }
        yield { type: "text-delta", id: "text-0", delta: "" };
      }
    }
    // the event as it came, after the parts made from it
    yield { type: "raw", rawValue: chunk };
  }

  private toolCallsOf(choice: number): Map<number, ToolCallState> {
    this.otherToolCalls ??= new Map();
    let calls = this.otherToolCalls.get(choice);
    if (calls === undefined) {
      calls = new Map();
      this.otherToolCalls.set(choice, calls);
    }
    return calls;
  }

  *finish(): Generator<ChatModelV1StreamPart> {
    if (this.reasoningOpen) yield { type: "reasoning-end", id: "reasoning-0" };
    if (this.textOpen) yield { type: "text-end", id: "text-0" };
    for (const calls of [this.toolCalls, ...(this.otherToolCalls?.values() ?? [])]) {
      for (const [index, state] of calls) {
        if (!state.ended) {
          state.ended = true;
          yield { type: "tool-input-end", id: state.id, index };
        }
      }
    }
    // The keys LangChain.js's streamed answer ends up with: the choice's `prompt` / `completion`
    // indexes, a copy of the raw `usage`, `system_fingerprint` and `service_tier`.
    const metadata: Record<string, JSONValue> = { prompt: 0, completion: 0, usage: this.rawUsage };
    if (this.systemFingerprint !== undefined) metadata.system_fingerprint = this.systemFingerprint;
    if (this.serviceTier !== undefined) metadata.service_tier = this.serviceTier;
    yield {
      type: "finish",
      finishReason: mapOpenAIFinishReason(this.finishReason),
      usage: this.usage,
      providerMetadata: { [this.provider]: metadata },
    };
  }
}
