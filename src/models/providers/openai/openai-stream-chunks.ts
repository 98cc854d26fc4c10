import type { AIMessageChunkFields, ResponseMetadata } from "../../../messages/index.js";
import { AIMessageChunk } from "../../../messages/index.js";
import { ChatGenerationChunk } from "../../chat-model/chat-generation-chunk.js";
import type { ChatModelV1StreamPart } from "../../spec/index.js";
import type { MessageContext } from "../../spec-adapter/result-to-message.js";
import { StreamPartsToChunks } from "../../spec-adapter/stream-parts-to-chunks.js";
import type { OpenAIChatChunk } from "./openai-wire.js";

/**
 * What `@langchain/openai` reports in a stream chunk's `generationInfo` rather than its message,
 * in the order it writes them.
 */
const GENERATION_INFO_ORDER = [
  "prompt",
  "completion",
  "finish_reason",
  "system_fingerprint",
  "model_name",
  "service_tier",
] as const;
const GENERATION_INFO = new Set<string>(GENERATION_INFO_ORDER);

/**
 * ChatOpenAI's stream chunks, shaped as `@langchain/openai` shapes them: every chunk of the
 * answer carries `{ model_provider, usage: {} }` in its `response_metadata` and `{ prompt: 0,
 * completion: 0 }` in its `generationInfo` (with the finish chunk's `finish_reason`,
 * `model_name`, `system_fingerprint` and `service_tier`; `stream()` merges it under the
 * metadata, token callbacks and so the `messages` stream mode do not see it), and the usage
 * comes on a chunk of its own after the finish chunk, without the answer's id, with the raw
 * `usage` as its `response_metadata`. As in
 * `@langchain/openai`, each server event with a delta is one chunk: the parts made from one
 * event (a tool call's start and its first arguments, several calls, text and a call, the last
 * text and the `finish_reason`) are joined. With `logprobs`
 * set on the model, every chunk's `generationInfo` but the usage one's also has the `logprobs`
 * of the server event it came from (the finish chunk those of the event with the
 * `finish_reason`).
 *
 * @example
 * ```ts
 * const mapper = new OpenAIStreamChunks(ctx, false);
 * for await (const part of parts) { const chunk = mapper.map(part); if (chunk) yield chunk; }
 * const usage = mapper.flush();
 * ```
 */
export class OpenAIStreamChunks extends StreamPartsToChunks {
  private readonly provider: string;
  /** The `logprobs` of the event that finished the answer. */
  private finishLogprobs: unknown;
  private finishing = false;
  /**
   * Whether the answer has several choices (`n` above 1, or an event of a choice other than the
   * first has come): each event's chunk then goes out as it is read, with its choice's index as
   * `completion` and, for the event that finishes a choice, that choice's finish metadata, as
   * `@langchain/openai` yields them.
   */
  private multiple: boolean;
  /** The chunk of the server event being read (its parts come before its `raw` part). */
  private eventChunk: ChatGenerationChunk | undefined;
  /** The chunk of the event with the `finish_reason`, waiting to be joined with the finish part. */
  private finishedChunk: ChatGenerationChunk | undefined;
  /** Whether an event's chunk has been made (so a stream that never finished still has one). */
  private answered = false;
  /** Whether an event with a `finish_reason` came. */
  private finishSeen = false;

  constructor(
    ctx: MessageContext,
    private readonly logprobs: boolean,
    choices = 1,
  ) {
    super(ctx);
    this.provider = ctx.provider;
    this.multiple = choices > 1;
  }

  override map(part: ChatModelV1StreamPart): ChatGenerationChunk | undefined {
    if (part.type === "raw") {
      // the event's parts have all been mapped: its chunk is complete
      const event = part.rawValue as OpenAIChatChunk;
      const choice = event.choices?.[0];
      if (choice?.index) this.multiple = true;
      if (this.multiple) return this.choiceChunk(event);
      if (choice?.finish_reason) {
        this.finishLogprobs = choice.logprobs;
        this.finishSeen = true;
      }
      const chunk = this.eventChunk;
      if (chunk === undefined) return undefined;
      this.eventChunk = undefined;
      this.answered = true;
      deltaKwargs(chunk, choice);
      if (!choice?.finish_reason) {
        if (this.logprobs) (chunk.generationInfo as Record<string, unknown>).logprobs = choice?.logprobs;
        return chunk;
      }
      // the event that finishes the answer is one chunk with the finish metadata (its
      // `logprobs` included), which the finish part brings once the stream has ended
      const earlier = this.finishedChunk;
      this.finishedChunk = chunk;
      return earlier;
    }
    const chunk = super.map(part);
    if (chunk === undefined) return undefined;
    if (part.type === "finish") {
      // each choice's finish chunk has gone out with its event; the usage chunk is held
      if (this.multiple && this.finishedChunk === undefined) return undefined;
      const finished = this.finishedChunk;
      this.finishedChunk = undefined;
      // a stream no event finished (no `finish_reason`) has no finish chunk, as in LangChain.js
      if (finished === undefined && this.answered && !this.finishSeen) return undefined;
      return finished === undefined ? chunk : finished.concat(chunk);
    }
    if (this.eventChunk !== undefined) {
      this.eventChunk = this.eventChunk.concat(chunk);
      return undefined;
    }
    this.eventChunk = chunk;
    // an event after the finishing one (another choice's, with `n` above 1): the finishing
    // event's chunk goes out as it is
    const earlier = this.finishedChunk;
    this.finishedChunk = undefined;
    return earlier;
  }

  /** The chunk of one server event of an answer with several choices (see {@link multiple}). */
  private choiceChunk(event: OpenAIChatChunk): ChatGenerationChunk | undefined {
    const choice = event.choices?.[0];
    const finishReason = choice?.finish_reason;
    let chunk = this.eventChunk;
    this.eventChunk = undefined;
    if (chunk === undefined) {
      // an event with nothing but its choice's `finish_reason`
      if (!finishReason) return undefined;
      chunk = this.chunk({ content: "" });
    }
    const info = chunk.generationInfo as Record<string, unknown>;
    if (choice?.index) info.completion = choice.index;
    if (finishReason) {
      info.finish_reason = finishReason;
      if (event.system_fingerprint !== undefined) info.system_fingerprint = event.system_fingerprint;
      if (event.model !== undefined) info.model_name = event.model;
      if (event.service_tier !== undefined) info.service_tier = event.service_tier;
    }
    if (this.logprobs) info.logprobs = choice?.logprobs;
    return chunk;
  }

  protected override finishChunk(
    fields: AIMessageChunkFields,
    usage: AIMessageChunkFields["usage_metadata"],
  ): ChatGenerationChunk {
    this.finishing = true;
    if (usage !== undefined) {
      // the raw `usage` copy goes with the usage, on its chunk (the finish chunk's is `{}`)
      const { usage: raw, ...rest } = fields.response_metadata ?? {};
      fields.response_metadata = rest;
      this.hold(
        new ChatGenerationChunk({
          text: "",
          message: new AIMessageChunk({
            content: "",
            usage_metadata: usage,
            response_metadata: raw === undefined ? {} : { usage: raw },
          }),
        }),
      );
    }
    return this.chunk(fields);
  }

  protected override chunk(fields: AIMessageChunkFields, text = ""): ChatGenerationChunk {
    // the generation's fields go to `generationInfo`, which `stream()` merges under each chunk's
    // `response_metadata` and a `messages` stream or token callback does not see
    const info: Record<string, unknown> = { prompt: 0, completion: 0 };
    const metadata: ResponseMetadata = { model_provider: this.provider, usage: {} };
    const given = fields.response_metadata;
    // `for…in`, not entries: this runs for every token of a streamed answer (whose chunks have
    // no metadata of their own; the finish chunk's info keys go in @langchain/openai's order)
    if (given !== undefined) {
      for (const key in given) if (!GENERATION_INFO.has(key)) metadata[key] = given[key];
      for (const key of GENERATION_INFO_ORDER) if (given[key] !== undefined) info[key] = given[key];
    }
    // an event's chunk gets its event's `logprobs` once the event has been read
    if (this.logprobs && this.finishing) info.logprobs = this.finishLogprobs;
    const generation = super.chunk({ ...fields, response_metadata: metadata }, text);
    generation.generationInfo = info;
    return generation;
  }
}

/**
 * A delta's piece of the spoken answer and of a legacy `function_call` go in its chunk's
 * `additional_kwargs`, as `@langchain/openai` puts them (the audio with its choice's `index`),
 * so that the joined answer has them whole.
 */
function deltaKwargs(
  chunk: ChatGenerationChunk,
  choice: OpenAIChatChunk["choices"][number] | undefined,
): void {
  const delta = choice?.delta;
  if (delta?.function_call) {
    chunk.message.additional_kwargs = {
      ...chunk.message.additional_kwargs,
      // a fragment: its name or arguments may be missing, to be joined with the other chunks'
      function_call: { ...delta.function_call } as { name: string; arguments: string },
    };
  }
  if (delta?.audio) {
    chunk.message.additional_kwargs = {
      ...chunk.message.additional_kwargs,
      audio: { ...delta.audio, index: choice?.index ?? 0 },
    };
  }
}
