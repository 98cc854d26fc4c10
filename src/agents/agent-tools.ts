import { SystemMessage } from "../messages/index.js";
import { InvalidArgumentError } from "../shared/index.js";
import {
  type BindToolsInput,
  isStandardSchema,
  isStructuredTool,
  type JsonSchema,
  type StructuredToolInterface,
  tool,
} from "../tools/index.js";
import { MultipleToolsBoundError } from "./errors.js";
import type { AgentTool } from "./types.js";

/** The agent's tools, split as the tools node and the model see them. */
export interface NormalizedTools {
  /** Tool objects, run by the tools node. */
  readonly client: StructuredToolInterface[];
  /** Everything offered to the model, in order: client tools and provider-side descriptors. */
  readonly all: BindToolsInput[];
}

const ANY_OBJECT: JsonSchema = { type: "object", properties: {}, additionalProperties: true };

/** True for a tool the agent runs itself (a tool object with `invoke`). */
export function isClientTool(value: unknown): value is StructuredToolInterface {
  return isStructuredTool(value);
}

/**
 * Normalizes the `tools` option and the middleware tools: tool objects are kept, plain
 * functions are wrapped with `tool()`, and plain objects (provider-side tools) are bound to the
 * model but never run locally.
 */
export function normalizeTools(tools: readonly AgentTool[]): NormalizedTools {
  const client: StructuredToolInterface[] = [];
  const all: BindToolsInput[] = [];
  for (const entry of tools) {
    if (isClientTool(entry)) {
      client.push(entry);
      all.push(entry);
    } else if (typeof entry === "function") {
      const wrapped = wrapFunction(entry as (args: never) => unknown);
      client.push(wrapped);
      all.push(wrapped);
    } else if (typeof entry === "object" && entry !== null) {
      all.push(entry as BindToolsInput);
    } else {
      throw new InvalidArgumentError(
        `Invalid tool ${String(entry)}: pass a tool made with tool(), a function, or a provider tool descriptor object.`,
      );
    }
  }
  return { client, all };
}

function wrapFunction(fn: (args: never) => unknown): StructuredToolInterface {
  const name = fn.name;
  if (name === "" || name === "anonymous") {
    throw new InvalidArgumentError(
      "A function given as a tool needs a name: use a named function, or wrap it with tool(fn, { name, description, schema }).",
    );
  }
  const { description, schema } = fn as { description?: unknown; schema?: unknown };
  const toolSchema =
    isStandardSchema(schema) || (typeof schema === "object" && schema !== null) ? schema : ANY_OBJECT;
  return tool(fn as never, {
    name,
    description: typeof description === "string" ? description : "",
    schema: toolSchema as JsonSchema,
  }) as unknown as StructuredToolInterface;
}

/**
 * Refuses a model that already has tools bound (a `bindTools` result with tools in its
 * `kwargs` or `config`, or a model with a non-empty `tools` list), as LangChain.js's
 * `validateLLMHasNoBoundTools`. Nothing else is read: a user's model whose `bindTools` records
 * the tools on itself under another name (and returns itself) is accepted, as there.
 */
export function assertNoBoundTools(model: unknown): void {
  if (typeof model !== "object" || model === null) return;
  const m = model as {
    kwargs?: { tools?: unknown };
    config?: { tools?: unknown };
    tools?: unknown;
  };
  const nonEmpty = (v: unknown) => Array.isArray(v) && v.length > 0;
  if (nonEmpty(m.kwargs?.tools) || nonEmpty(m.config?.tools) || nonEmpty(m.tools)) {
    throw new MultipleToolsBoundError();
  }
}

/**
 * The `systemPrompt` option as a message (an empty one when there is no prompt). A string
 * becomes one text content block, as LangChain.js builds it (providers still receive plain text:
 * a system turn that is all text is sent as a string).
 */
export function normalizeSystemPrompt(prompt: unknown): SystemMessage {
  if (prompt === undefined || prompt === null) return new SystemMessage("");
  if (typeof prompt === "string") return systemPromptMessage(prompt);
  if (prompt instanceof SystemMessage || (prompt as { getType?: () => string }).getType?.() === "system") {
    return prompt as SystemMessage;
  }
  throw new InvalidArgumentError(
    `Invalid systemPrompt type: expected string or SystemMessage, got ${typeof prompt}`,
  );
}

/** A system prompt given as text, as a message holding one text block. */
export function systemPromptMessage(text: string): SystemMessage {
  return new SystemMessage({ content: [{ type: "text", text }] });
}
