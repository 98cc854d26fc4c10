import { AIMessage, type BaseMessage, type ToolCall, ToolMessage } from "../messages/index.js";
import { MultipleStructuredOutputsError, StructuredOutputParsingError } from "./errors.js";
import type {
  ProviderStrategy,
  ResponseStrategy,
  StructuredOutputErrorHandler,
  ToolStrategy,
} from "./responses.js";

/** What the model's answer adds to the state once structured output is handled. */
export interface StructuredOutcome {
  readonly messages: BaseMessage[];
  /** Set when a structured response was produced. */
  readonly structuredResponse?: unknown;
  readonly hasStructuredResponse: boolean;
}

/**
 * Applies the response strategies to the model's answer, as LangChain.js does:
 *
 * - provider strategy: the answer's JSON text, when valid, is the structured response; an
 *   answer without tool calls that is not valid throws {@link StructuredOutputParsingError}
 *   (unless `lenient`: an answer a middleware made, which is then a plain answer);
 * - tool strategy, one structured call: a valid call gives `[answer, ToolMessage(json),
 *   AIMessage("Returning structured response: …")]`; an invalid one an error `ToolMessage` for
 *   the model to retry (or a throw, per `handleError`);
 * - tool strategy, several structured calls: a {@link MultipleStructuredOutputsError}, shown to
 *   the model as an error `ToolMessage` on every structured call (so none is left unanswered).
 */
export async function applyStructuredOutput(
  message: AIMessage,
  strategies: readonly ResponseStrategy[],
  lenient = false,
): Promise<StructuredOutcome> {
  const plain: StructuredOutcome = { messages: [message], hasStructuredResponse: false };
  if (strategies.length === 0) return plain;
  const first = strategies[0];
  if (first?.kind === "provider") {
    const strategy = first as ProviderStrategy<unknown>;
    const parsed = strategy.parse(message);
    if (parsed !== undefined)
      return { messages: [message], structuredResponse: parsed, hasStructuredResponse: true };
    if (message.tool_calls.length === 0 && !lenient) {
      const title = strategy.jsonSchema.title;
      throw new StructuredOutputParsingError(typeof title === "string" ? title : "providerStrategy", [
        "Model output did not satisfy the provided response schema.",
      ]);
    }
    return plain;
  }
  const tools = new Map<string, ToolStrategy<unknown>>();
  for (const s of strategies) if (s.kind === "tool") tools.set(s.name, s);
  const calls = message.tool_calls.filter((call) => tools.has(call.name));
  if (calls.length === 0) return plain;
  const handleError = (tools.values().next().value as ToolStrategy<unknown>).options?.handleError;
  if (calls.length > 1) {
    const error = new MultipleStructuredOutputsError(calls.map((call) => call.name));
    const content = await errorContent(error, handleError);
    return {
      messages: [message, ...calls.map((call) => errorMessage(content, call))],
      hasStructuredResponse: false,
    };
  }
  const call = calls[0] as ToolCall;
  const strategy = tools.get(call.name) as ToolStrategy<unknown>;
  let parsed: unknown;
  try {
    parsed = strategy.parse(call.args);
  } catch (error) {
    const content = await errorContent(error, handleError);
    return { messages: [message, errorMessage(content, call)], hasStructuredResponse: false };
  }
  const json = JSON.stringify(parsed);
  return {
    messages: [
      message,
      new ToolMessage({ content: json, tool_call_id: call.id ?? "", name: call.name }),
      new AIMessage(strategy.options?.toolMessageContent ?? `Returning structured response: ${json}`),
    ],
    structuredResponse: parsed,
    hasStructuredResponse: true,
  };
}

async function errorContent(
  error: unknown,
  handleError: StructuredOutputErrorHandler | undefined,
): Promise<string> {
  if (handleError === false) throw error;
  if (typeof handleError === "string") return handleError;
  if (typeof handleError === "function") {
    const content = await handleError(error);
    // plain Errors, as LangChain.js throws them
    if (typeof content !== "string") throw new Error("Error handler must return a string.");
    return content;
  }
  return error instanceof Error ? error.message : String(error);
}

function errorMessage(content: string, call: ToolCall): ToolMessage {
  if (call.id === undefined || call.id === "") {
    throw new Error("Tool call ID is required to handle tool output errors. Please provide a tool call ID.");
  }
  return new ToolMessage({ content, tool_call_id: call.id });
}
