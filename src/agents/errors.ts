import { isGraphBubbleUp } from "../graph/index.js";
import type { ToolCall } from "../messages/index.js";
import { AgentGraphError } from "../shared/index.js";

/**
 * Thrown by `createAgent` when the model it is given already has tools bound: the agent binds
 * its own tools (its `tools`, middleware tools and structured-output tools) on every call.
 *
 * @example
 * ```ts
 * try {
 *   createAgent({ model: model.bindTools([search]), tools: [search] });
 * } catch (error) {
 *   error instanceof MultipleToolsBoundError; // true
 * }
 * ```
 */
export class MultipleToolsBoundError extends AgentGraphError {
  static override readonly brandName: string = "MultipleToolsBoundError";

  constructor() {
    super(
      "The provided LLM already has bound tools. Please provide an LLM without bound tools to createAgent. The agent will bind the tools provided in the 'tools' parameter.",
      { code: "MULTIPLE_TOOLS_BOUND" },
    );
  }
}

/**
 * The base class of the structured-output errors ({@link MultipleStructuredOutputsError},
 * {@link StructuredOutputParsingError}).
 *
 * @example
 * ```ts
 * if (error instanceof StructuredOutputError) console.log("the model's structured answer was unusable");
 * ```
 */
export class StructuredOutputError extends AgentGraphError {
  static override readonly brandName: string = "StructuredOutputError";
}

/**
 * The model called more than one structured-output tool in one answer (tool strategy). By
 * default the agent shows this message to the model and asks again.
 *
 * @example
 * ```ts
 * new MultipleStructuredOutputsError(["Weather", "Forecast"]).message;
 * // "The model has called multiple tools: Weather, Forecast to return a structured output. …"
 * ```
 */
export class MultipleStructuredOutputsError extends StructuredOutputError {
  static override readonly brandName: string = "MultipleStructuredOutputsError";
  /** The structured-output tools the model called. */
  readonly toolNames: string[];

  constructor(toolNames: string[]) {
    super(
      `The model has called multiple tools: ${toolNames.join(", ")} to return a structured output. This is not supported. Please provide a single structured output.`,
      { code: "MULTIPLE_STRUCTURED_OUTPUTS" },
    );
    this.toolNames = toolNames;
  }
}

/**
 * The model's structured answer did not satisfy the schema: the arguments of a
 * structured-output tool call (tool strategy, retried by default) or the JSON text of the
 * answer (provider strategy, never retried).
 *
 * @example
 * ```ts
 * new StructuredOutputParsingError("Weather", ["city: Required"]).message;
 * // "Failed to parse structured output for tool 'Weather':\n  - city: Required."
 * ```
 */
export class StructuredOutputParsingError extends StructuredOutputError {
  static override readonly brandName: string = "StructuredOutputParsingError";
  /** The structured-output tool (or schema title) that failed. */
  readonly toolName: string;
  /** One line per problem found. */
  readonly errors: string[];

  constructor(toolName: string, errors: string[]) {
    super(
      `Failed to parse structured output for tool '${toolName}':${errors.map((e) => `\n  - ${e}`).join("")}.`,
      { code: "STRUCTURED_OUTPUT_PARSING" },
    );
    this.toolName = toolName;
    this.errors = errors;
  }
}

/**
 * A tool call whose arguments did not match the tool's schema, as the agent's tools node
 * reports it to the model (LangChain.js's text): `Error invoking tool '<name>' with kwargs
 * <json> with error: <the parsing error and its stack>\n Please fix the error and try again.`
 * The agent turns it into an error `ToolMessage`, also when it escapes `wrapToolCall`
 * middleware (which other tool errors do not).
 *
 * @example
 * ```ts
 * const error = new ToolInvocationError(new Error("bad input"), { name: "search", args: { q: 1 }, id: "c1" });
 * error.message.startsWith("Error invoking tool 'search' with kwargs {\"q\":1}"); // true
 * ```
 */
export class ToolInvocationError extends AgentGraphError {
  static override readonly brandName: string = "ToolInvocationError";
  /** The tool call that failed. */
  readonly toolCall: ToolCall;
  /** The error the tool raised. */
  readonly toolError: Error;

  constructor(toolError: unknown, toolCall: ToolCall) {
    const error = toolError instanceof Error ? toolError : new Error(String(toolError));
    super(
      `Error invoking tool '${toolCall.name}' with kwargs ${JSON.stringify(toolCall.args)} with error: ${errorTrace(error)}\n Please fix the error and try again.`,
      { code: "TOOL_INVOCATION_ERROR", cause: error },
    );
    this.toolCall = toolCall;
    this.toolError = error;
  }
}

/** `Error: <message>` and the stack frames (LangChain.js prints the stack of a plain `Error`). */
function errorTrace(error: Error): string {
  const stack = error.stack ?? "";
  const at = error.message === "" ? -1 : stack.indexOf(error.message);
  const newline = stack.indexOf("\n");
  let frames = "";
  if (at >= 0) frames = stack.slice(at + error.message.length);
  else if (newline >= 0) frames = stack.slice(newline);
  return `Error: ${error.message}${frames}`;
}

/** Adds to `error`'s stack trace the line naming the middleware hook it came from (once). */
function nameHookInStack(error: Error, middlewareName: string, hook: string | undefined): void {
  const line = `\n    in middleware "${middlewareName}"${hook === undefined ? "" : ` (${hook})`}`;
  try {
    if (typeof error.stack === "string" && !error.stack.includes(line)) error.stack += line;
  } catch {
    // a frozen error keeps its stack
  }
}

/**
 * An error thrown inside a `wrapModelCall` or `wrapToolCall` hook (the model's or the
 * middleware's own), as LangChain.js wraps it: the message and `name` are the original
 * error's, the original error is `cause`, and `middlewareName` / `hook` (and a line of the
 * stack trace) name the middleware. Interrupts and other graph control signals are never
 * wrapped. Errors of node hooks (`beforeModel`, …) reach the caller unchanged, as in
 * LangChain.js, with that stack line added.
 *
 * @example
 * ```ts
 * try {
 *   await agent.invoke({ messages: [{ role: "user", content: "hi" }] });
 * } catch (error) {
 *   if (error instanceof MiddlewareError) console.log(error.middlewareName, error.hook, error.cause);
 * }
 * ```
 */
export class MiddlewareError extends AgentGraphError {
  static override readonly brandName: string = "MiddlewareError";
  /** The middleware whose hook failed. */
  readonly middlewareName: string;
  /**
   * The hook that failed (`wrapModelCall`, `wrapToolCall`, or a node hook that threw a
   * non-error); `undefined` when the error was wrapped without naming one.
   */
  readonly hook: string | undefined;

  constructor(error: unknown, middlewareName: string, hook?: string) {
    const text = error instanceof Error ? error.message : String(error);
    super(text, { cause: error, code: "MIDDLEWARE_ERROR" });
    this.middlewareName = middlewareName;
    this.hook = hook;
    // as in LangChain.js: the original error's name, or `<Name>Error` for a thrown non-error
    this.name =
      error instanceof Error
        ? error.name
        : `${middlewareName.charAt(0).toUpperCase()}${middlewareName.slice(1)}Error`;
    nameHookInStack(this, middlewareName, hook);
  }

  /**
   * Wraps `error` in a `MiddlewareError` unless it is a graph control signal (interrupt, parent
   * command), which must propagate unchanged, or already a `MiddlewareError`.
   *
   * @example
   * ```ts
   * MiddlewareError.wrap(new Error("boom"), "audit").message; // "boom"
   * ```
   */
  static wrap(error: unknown, middlewareName: string, hook?: string): Error {
    if (isGraphBubbleUp(error) || error instanceof MiddlewareError) return error;
    return new MiddlewareError(error, middlewareName, hook);
  }

  /**
   * True when `error` is a `MiddlewareError` (from any copy of the library), as LangChain.js's
   * `MiddlewareError.isInstance`.
   *
   * @example
   * ```ts
   * if (MiddlewareError.isInstance(error)) console.log(error.middlewareName);
   * ```
   */
  static isInstance(error: unknown): error is MiddlewareError {
    return error instanceof MiddlewareError;
  }

  /**
   * What a node hook's error becomes: the error itself (its stack trace naming the hook), as
   * LangChain.js rethrows it, or a `MiddlewareError` when something other than an `Error` was
   * thrown. Graph control signals pass through untouched.
   */
  static fromNodeHook(error: unknown, middlewareName: string, hook: string): unknown {
    if (isGraphBubbleUp(error) || error instanceof MiddlewareError) return error;
    if (!(error instanceof Error)) return new MiddlewareError(error, middlewareName, hook);
    nameHookInStack(error, middlewareName, hook);
    return error;
  }
}
