import { AgentGraphError } from "../shared/index.js";

/**
 * The arguments given to a tool do not match its schema. The message starts with
 * LangChain.js's text (`Received tool input did not match expected schema`) and lists each
 * problem with the argument path (`✖ Invalid input: expected string, received number` /
 * `→ at city`). Only the arguments the model wrote are mentioned, never runtime values.
 * `output` holds the JSON of the arguments received (LangChain.js's field name).
 *
 * @example
 * ```ts
 * try {
 *   await weather.invoke({ city: 5 });
 * } catch (e) {
 *   if (e instanceof ToolInputParsingException) console.log(e.message);
 * }
 * ```
 */
export class ToolInputParsingException extends AgentGraphError {
  static override readonly brandName: string = "ToolInputParsingException";
  /** The JSON text of the arguments that failed. */
  readonly output: string | undefined;

  constructor(message: string, output?: string) {
    super(message, { code: "TOOL_INPUT_PARSING_FAILURE" });
    this.output = output;
  }
}

/**
 * A tool's return value does not fit its `responseFormat` (for example a
 * `"content_and_artifact"` tool that did not return a two-element array). Its `name` is
 * `"Error"` and its message LangChain.js's, so what the model and `String(error)` show is the
 * same as there; `instanceof ToolOutputFormatError` still tells it apart.
 *
 * @example
 * ```ts
 * // Error: Tool response format is "content_and_artifact" but the output was not a two-tuple.
 * // Result: "plain"
 * ```
 */
export class ToolOutputFormatError extends AgentGraphError {
  static override readonly brandName: string = "ToolOutputFormatError";

  constructor(message: string) {
    super(message, { code: "TOOL_OUTPUT_FORMAT" });
    this.name = "Error";
  }
}
