import { z } from "zod";
import {
  AIMessage,
  type BaseMessage,
  isAIMessage,
  isHumanMessage,
  isSystemMessage,
  isToolMessage,
  type MessageContent,
  RemoveMessage,
  type ToolCall,
} from "../../messages/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware, ModelCallHandler, ModelRequest } from "../types.js";
import { copyWithContent } from "./message-copy.js";

/**
 * Options of {@link piiRedactionMiddleware}: detection rules by name. A rule's name, upper-cased,
 * appears in its markers (`ssn` → `[REDACTED_SSN_<id>]`); use the global flag (`/…/g`) to
 * redact every occurrence.
 *
 * @example
 * ```ts
 * const config: PIIRedactionMiddlewareConfig = { rules: { ssn: /\b\d{3}-?\d{2}-?\d{4}\b/g } };
 * ```
 */
export interface PIIRedactionMiddlewareConfig {
  rules?: Record<string, RegExp> | undefined;
}

const contextSchema = z.object({
  rules: z
    .record(z.string(), z.instanceof(RegExp).describe("Regular expression pattern to match PII"))
    .optional(),
});

type RedactionMap = Record<string, string>;

const MARKER = /\[REDACTED_[A-Z_]+_(\w+)\]/g;

function redactionId(): string {
  return Math.random().toString(36).substring(2, 11);
}

function redactText(text: string, rules: Record<string, RegExp>, map: RedactionMap): string {
  let out = text;
  for (const [name, pattern] of Object.entries(rules)) {
    const label = name.toUpperCase().replace(/[^a-zA-Z0-9_-]/g, "");
    out = out.replace(pattern, (match) => {
      const id = redactionId();
      map[id] = match;
      return `[REDACTED_${label}_${id}]`;
    });
  }
  return out;
}

function restoreText(text: string, map: RedactionMap): string {
  return text.replace(MARKER, (marker, id: string) => map[id] ?? marker);
}

/** Applies `edit` to a string content, or to the text of each text block. */
function editContent(content: MessageContent, edit: (text: string) => string): MessageContent {
  if (typeof content === "string") return edit(content);
  let changed = false;
  const blocks = content.map((block) => {
    const part = block as { type?: unknown; text?: unknown };
    if (part.type !== "text" || typeof part.text !== "string") return block;
    const text = edit(part.text);
    if (text === part.text) return block;
    changed = true;
    return { ...block, text };
  });
  return changed ? (blocks as MessageContent) : content;
}

/** The message with `edit` applied to its text (and an AI message's tool calls); same object if unchanged. */
function editMessage(message: BaseMessage, edit: (text: string) => string): BaseMessage {
  if (isAIMessage(message)) {
    const content = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    const calls = JSON.stringify(message.tool_calls);
    const newContent = edit(content);
    const newCalls = edit(calls);
    if (newContent === content && newCalls === calls) return message;
    return new AIMessage({
      content: typeof message.content === "string" ? newContent : (JSON.parse(newContent) as MessageContent),
      id: message.id,
      name: message.name,
      tool_calls: JSON.parse(newCalls) as ToolCall[],
      invalid_tool_calls: message.invalid_tool_calls,
      usage_metadata: message.usage_metadata,
      additional_kwargs: { ...message.additional_kwargs },
      response_metadata: { ...message.response_metadata },
    });
  }
  if (isHumanMessage(message) || isToolMessage(message) || isSystemMessage(message)) {
    const content = editContent(message.content, edit);
    return content === message.content ? message : copyWithContent(message, content);
  }
  throw new InvalidArgumentError(`Unsupported message type: ${message.getType()}`);
}

const isExtractCall = (call: ToolCall) => call.name.startsWith("extract-");

/**
 * Redacts PII from what the model sees and restores it in what the model answers, as
 * LangChain.js's deprecated `piiRedactionMiddleware` (use {@link piiMiddleware} for new code;
 * constructing it prints LangChain.js's deprecation warning).
 *
 * Before each model call (`wrapModelCall`), every message of the state is scanned with the
 * rules (`runtime.context.rules`, else `options.rules`; nothing happens without rules): each
 * match becomes `[REDACTED_<RULE>_<id>]` and is remembered by id, in text content, text
 * blocks, and an AI message's content and tool-call arguments. The state itself keeps the
 * original messages. After the model call (`afterModel`), markers in the model's answer (its
 * text and its tool calls, so tools receive the real values) are replaced by the remembered
 * values; the answer is replaced in state under its id, and a structured response (a JSON
 * answer, or the arguments of an `extract-…` tool call) is restored too.
 *
 * The original values stay in the checkpointed state, the tools' arguments and the final
 * output: this isolates the model provider only.
 *
 * @example
 * ```ts
 * import { createAgent, piiRedactionMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1-mini",
 *   tools: [lookupUser],
 *   middleware: [piiRedactionMiddleware({ rules: { ssn: /\b\d{3}-?\d{2}-?\d{4}\b/g } })],
 * });
 * // the model sees "Look up SSN [REDACTED_SSN_k3j9x0a1b]"; lookup_user receives "123-45-6789"
 * ```
 *
 * @deprecated Use `piiMiddleware`.
 */
export function piiRedactionMiddleware(
  options: PIIRedactionMiddlewareConfig = {},
): AgentMiddleware<Record<never, never>, Record<string, unknown>, z.input<typeof contextSchema>> {
  const map: RedactionMap = {};
  console.warn(
    "DEPRECATED: piiRedactionMiddleware is deprecated. Please use piiMiddleware instead, go to https://docs.langchain.com/oss/javascript/langchain/middleware/built-in#pii-detection for more information.",
  );
  const restore = (text: string) => restoreText(text, map);
  const middleware = createMiddleware({
    name: "PIIRedactionMiddleware",
    contextSchema,
    wrapModelCall: (request: ModelRequest, handler: ModelCallHandler) => {
      const context = (request.runtime.context ?? {}) as z.infer<typeof contextSchema>;
      const rules = context.rules ?? options.rules ?? {};
      if (Object.keys(rules).length === 0) return handler(request);
      const redact = (text: string) => redactText(text, rules, map);
      const messages = request.state.messages.map((message) => editMessage(message, redact));
      return handler({ ...request, messages });
    },
    afterModel: (state) => {
      if (Object.keys(map).length === 0) return undefined;
      const last = state.messages.at(-1);
      if (last === undefined || !isAIMessage(last)) return undefined;
      const restoredLast = editMessage(last, restore);
      if (restoredLast === last) return undefined;
      let structuredResponse: unknown;
      if (
        last.tool_calls.length === 0 &&
        typeof last.content === "string" &&
        last.content.startsWith("{") &&
        last.content.endsWith("}")
      ) {
        try {
          structuredResponse = JSON.parse(restore(last.content));
        } catch {
          structuredResponse = undefined;
        }
      }
      const previous = state.messages.at(-2);
      if (previous !== undefined && isAIMessage(previous) && previous.tool_calls.some(isExtractCall)) {
        const restoredPrevious = editMessage(previous, restore);
        const args = previous.tool_calls.find(isExtractCall)?.args;
        const restoredArgs = args === undefined ? undefined : JSON.parse(restore(JSON.stringify(args)));
        return {
          ...(restoredArgs ? { structuredResponse: restoredArgs } : {}),
          messages: [
            new RemoveMessage({ id: previous.id ?? "" }),
            new RemoveMessage({ id: last.id ?? "" }),
            restoredPrevious,
            restoredLast,
          ],
        };
      }
      return {
        ...(structuredResponse ? { structuredResponse } : {}),
        messages: [new RemoveMessage({ id: last.id ?? "" }), restoredLast],
      };
    },
  });
  return middleware as unknown as AgentMiddleware<
    Record<never, never>,
    Record<string, unknown>,
    z.input<typeof contextSchema>
  >;
}
