import type { JSONValue } from "../../spec/index.js";

/**
 * The parts of the OpenAI Chat Completions wire format this provider reads and writes —
 * deliberately limited to the fields used, so unrelated API changes cannot break it.
 * OpenAI-compatible servers (vLLM, Ollama, llama.cpp, LM Studio) speak the same format; the
 * `reasoning_content` / `reasoning` delta fields some of them add are included.
 */

/** A content part of a user (or tool) message. */
export type OpenAIContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: string } }
  | { type: "input_audio"; input_audio: { data: string; format: string } }
  | { type: "file"; file: { file_data?: string; file_id?: string; filename?: string } };

/** A tool call in an assistant message (request and response). */
export interface OpenAIWireToolCall {
  type: "function";
  id: string;
  function: { name: string; arguments: string };
}

/** One message of the request's `messages` array. */
export type OpenAIWireMessage =
  | { role: "system" | "developer"; content: string }
  | { role: "user"; content: string | OpenAIContentPart[]; name?: string }
  | { role: "assistant"; content: string | null; tool_calls?: OpenAIWireToolCall[]; name?: string }
  | { role: "tool"; content: string | OpenAIContentPart[]; tool_call_id: string }
  /** The legacy result of a function call (a `FunctionMessage`). */
  | { role: "function"; content: string | OpenAIContentPart[]; name: string }
  /** A `ChatMessage`, sent with its own role, whatever it is. */
  | { role: string; content: string | OpenAIContentPart[]; name?: string };

/** A tool definition in the request. */
export interface OpenAIWireTool {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
  /** Load the tool only when a tool search finds it (a tool's `extras.defer_loading`). */
  defer_loading?: boolean;
}

/** `tool_choice` in the request. */
export type OpenAIWireToolChoice =
  | "auto"
  | "none"
  | "required"
  | { type: "function"; function: { name: string } };

/** `response_format` in the request. */
export type OpenAIWireResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | {
      type: "json_schema";
      json_schema: { name: string; description?: string; schema: Record<string, unknown>; strict?: boolean };
    };

/** The request body of `POST /chat/completions`. */
export interface OpenAIChatRequest {
  model: string;
  messages: OpenAIWireMessage[];
  stream: boolean;
  stream_options?: { include_usage: boolean };
  tools?: OpenAIWireTool[];
  tool_choice?: OpenAIWireToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: OpenAIWireResponseFormat;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  [extra: string]: unknown;
}

/** Token usage as OpenAI reports it. */
export interface OpenAIWireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: {
    cached_tokens?: number | null;
    audio_tokens?: number | null;
    cache_write_tokens?: number | null;
  } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null; audio_tokens?: number | null } | null;
}

/** The response of a non-streaming call. */
export interface OpenAIChatResponse {
  id?: string;
  model?: string;
  created?: number;
  system_fingerprint?: string | null;
  service_tier?: string | null;
  choices: Array<{
    index?: number;
    finish_reason?: string | null;
    logprobs?: JSONValue;
    message: {
      content?: string | null;
      refusal?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: Array<{
        id?: string;
        type?: string;
        function?: { name?: string; arguments?: string };
      }> | null;
      /** The spoken answer (`modalities: ["text", "audio"]`). */
      audio?: Record<string, unknown> | null;
      /** A call of the legacy `functions` API. */
      function_call?: { name?: string; arguments?: string } | null;
      /** Images the model made (OpenRouter's image-generation models). */
      images?: Array<{ type?: string; image_url?: { url?: unknown } }> | null;
    };
  }>;
  usage?: OpenAIWireUsage | null;
}

/** One chunk of a streamed call. */
export interface OpenAIChatChunk {
  id?: string;
  model?: string;
  created?: number;
  system_fingerprint?: string | null;
  service_tier?: string | null;
  choices: Array<{
    index?: number;
    finish_reason?: string | null;
    logprobs?: JSONValue;
    delta?: {
      content?: string | null;
      refusal?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: Array<{
        index?: number;
        id?: string | null;
        type?: string;
        function?: { name?: string | null; arguments?: string | null };
      }> | null;
      /** A piece of the spoken answer (`modalities` with audio). */
      audio?: Record<string, unknown> | null;
      /** A piece of a legacy `functions` call. */
      function_call?: { name?: string; arguments?: string } | null;
    };
  }>;
  usage?: OpenAIWireUsage | null;
}
