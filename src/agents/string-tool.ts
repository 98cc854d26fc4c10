import type { JsonSchema, ToolRunManager, ToolRunnableConfig } from "../tools/index.js";
import { StructuredTool } from "../tools/index.js";

const INPUT_SCHEMA: JsonSchema = { type: "object", properties: { input: { type: "string" } } };

/**
 * The base class of tools that take one string (LangChain.js `Tool` from
 * `@langchain/core/tools`, re-exported by `langchain`). Subclasses set `name` and
 * `description` and implement `_call(input)`. The tool's schema is
 * `{ input?: string }`; a call with a string, `undefined`, `{ input }` or a tool call with
 * `args: { input }` reaches `_call` as the string.
 *
 * @example
 * ```ts
 * import { Tool } from "agentgraph/agents";
 *
 * class Shout extends Tool {
 *   name = "shout";
 *   description = "Upper-cases its input.";
 *   async _call(input: string | undefined) {
 *     return (input ?? "").toUpperCase();
 *   }
 * }
 * await new Shout().invoke("hi"); // "HI"
 * ```
 */
export abstract class Tool<Output = unknown> extends StructuredTool<JsonSchema, string | undefined, Output> {
  schema: JsonSchema = INPUT_SCHEMA;

  static lc_name(): string {
    return "Tool";
  }

  protected override async parseArgs(arg: unknown): Promise<string | undefined> {
    if (typeof arg === "string") return arg;
    if (arg === undefined || arg === null) return undefined;
    const parsed = (await super.parseArgs(arg)) as unknown as { input?: string } | string | undefined;
    return typeof parsed === "object" && parsed !== null ? parsed.input : parsed;
  }

  protected abstract override _call(
    arg: string | undefined,
    runManager?: ToolRunManager,
    parentConfig?: ToolRunnableConfig,
  ): Promise<Output>;
}
