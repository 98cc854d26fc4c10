/**
 * Canned OpenAI Chat Completions stream chunks and a server-sent-events `Response` built from
 * them (`@langchain/core/testing`'s fixtures), for driving `ChatOpenAI` through a custom `fetch`
 * without a network.
 */

/** Token usage as a Chat Completions chunk reports it. */
export interface OpenAICompletionsUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { audio_tokens?: number; cached_tokens?: number };
  completion_tokens_details?: { audio_tokens?: number; reasoning_tokens?: number };
}

/** One fragment of a streamed tool call: the first carries `id` and the name, later ones more arguments. */
export interface OpenAICompletionsToolCallDelta {
  index?: number;
  id?: string;
  type?: "function";
  function?: { name?: string; arguments?: string };
}

/** What one streamed choice adds to the answer. */
export interface OpenAICompletionsDelta {
  role?: string;
  content?: string | null;
  reasoning_content?: string;
  reasoning?: string;
  tool_calls?: OpenAICompletionsToolCallDelta[];
  function_call?: unknown;
  audio?: { id?: string; data?: string; transcript?: string };
}

/** Why a choice stopped, on its last chunk. */
export type OpenAICompletionsFinishReason =
  | "stop"
  | "length"
  | "max_tokens"
  | "tool_calls"
  | "function_call"
  | "content_filter"
  | null;

/** One choice of a streamed chunk. */
export interface OpenAICompletionsStreamChoice {
  index?: number;
  finish_reason?: OpenAICompletionsFinishReason;
  logprobs?: unknown;
  delta?: OpenAICompletionsDelta;
}

/**
 * One chunk of a streamed Chat Completions answer (`@langchain/core`'s
 * `OpenAICompletionsStreamChunk`).
 *
 * @example
 * ```ts
 * const chunk: OpenAICompletionsStreamChunk = {
 *   id: "chatcmpl-1",
 *   choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }],
 * };
 * ```
 */
export interface OpenAICompletionsStreamChunk {
  id?: string;
  model?: string;
  service_tier?: string | null;
  system_fingerprint?: string | null;
  usage?: OpenAICompletionsUsage | null;
  x_groq?: { usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } };
  choices?: OpenAICompletionsStreamChoice[];
}

/**
 * An async iterable that yields the items in order (a stand-in for a streamed source).
 *
 * @example
 * ```ts
 * for await (const chunk of asAsyncIterable(openAITextOnlyChunks())) console.log(chunk.id);
 * ```
 */
export function asAsyncIterable<T>(items: T[]): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      yield* items;
    },
  };
}

function textChunk(id: string, model: string, delta: OpenAICompletionsDelta): OpenAICompletionsStreamChunk {
  return { id, model, choices: [{ index: 0, delta, finish_reason: null }] };
}

function finishChunk(
  id: string,
  model: string,
  reason: OpenAICompletionsFinishReason,
): OpenAICompletionsStreamChunk {
  return { id, model, choices: [{ index: 0, delta: {}, finish_reason: reason }] };
}

/**
 * A text answer, "Hello" then " world", then a `stop` chunk; every chunk has the id
 * `"chatcmpl-text"` and the given model (default `"test-model"`).
 *
 * @example
 * ```ts
 * const chunks = openAITextOnlyChunks("gpt-4o-mini"); // 3 chunks
 * ```
 */
export function openAITextOnlyChunks(model = "test-model"): OpenAICompletionsStreamChunk[] {
  const id = "chatcmpl-text";
  return [
    textChunk(id, model, { role: "assistant", content: "Hello" }),
    textChunk(id, model, { content: " world" }),
    finishChunk(id, model, "stop"),
  ];
}

/**
 * {@link openAITextOnlyChunks} whose last chunk also reports usage: 10 prompt tokens,
 * 2 completion tokens, 12 in total.
 *
 * @example
 * ```ts
 * openAITextOnlyChunksWithUsage().at(-1)?.usage; // { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 }
 * ```
 */
export function openAITextOnlyChunksWithUsage(model = "test-model"): OpenAICompletionsStreamChunk[] {
  const chunks = openAITextOnlyChunks(model);
  const last = chunks.length - 1;
  chunks[last] = { ...chunks[last], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } };
  return chunks;
}

/**
 * An answer that first reasons (`reasoning_content` "Let me reason...") and then says
 * "Answer.", then a `stop` chunk; id `"chatcmpl-reason"`.
 *
 * @example
 * ```ts
 * const chunks = openAIReasoningTextChunks(); // 3 chunks
 * ```
 */
export function openAIReasoningTextChunks(model = "test-model"): OpenAICompletionsStreamChunk[] {
  const id = "chatcmpl-reason";
  return [
    textChunk(id, model, { role: "assistant", reasoning_content: "Let me reason..." }),
    textChunk(id, model, { content: "Answer." }),
    finishChunk(id, model, "stop"),
  ];
}

/**
 * An answer with the text "Let me search." and one tool call, `web_search` with the arguments
 * `{"query":"weather"}` and the id `"call_abc"`, its arguments split over two chunks, then a
 * `tool_calls` chunk; id `"chatcmpl-tools"`.
 *
 * @example
 * ```ts
 * const chunks = openAIToolCallChunks(); // 4 chunks
 * ```
 */
export function openAIToolCallChunks(model = "test-model"): OpenAICompletionsStreamChunk[] {
  const id = "chatcmpl-tools";
  return [
    textChunk(id, model, { role: "assistant", content: "Let me search." }),
    textChunk(id, model, {
      tool_calls: [
        {
          index: 0,
          id: "call_abc",
          type: "function",
          function: { name: "web_search", arguments: '{"query"' },
        },
      ],
    }),
    textChunk(id, model, { tool_calls: [{ index: 0, function: { arguments: ':"weather"}' } }] }),
    finishChunk(id, model, "tool_calls"),
  ];
}

/**
 * A `200` response with the `text/event-stream` content type whose body sends each chunk as one
 * `data: <JSON>` event (no closing `[DONE]` event): what a `fetch` given to `ChatOpenAI` can
 * return to stream the chunks.
 *
 * @example
 * ```ts
 * const model = new ChatOpenAI({
 *   model: "gpt-4o-mini",
 *   apiKey: "sk-test",
 *   streaming: true,
 *   configuration: { fetch: async () => sseResponseFromOpenAIChunks(openAIToolCallChunks()) },
 * });
 * ```
 */
export function sseResponseFromOpenAIChunks(chunks: OpenAICompletionsStreamChunk[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}
