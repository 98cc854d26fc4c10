import { HumanMessage, ToolMessage } from "../../messages/index.js";
import { initChatModel } from "../../models/index.js";
import type { ToolCallHandler, ToolCallRequest, ToolCallResult } from "../../prebuilt/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentChatModel, AgentMiddleware, ModelCallHandler, ModelRequest } from "../types.js";

/**
 * Options of {@link toolEmulatorMiddleware}.
 *
 * @example
 * ```ts
 * const options: ToolEmulatorOptions = { tools: ["get_weather"], model: "openai:gpt-4.1-mini" };
 * ```
 */
export interface ToolEmulatorOptions {
  /** The tools to emulate (names or tool objects); every tool when omitted or empty. */
  tools?: ReadonlyArray<string | { readonly name: string }> | undefined;
  /** The emulating model (an instance or an `initChatModel` string); the agent's model when omitted. */
  model?: string | AgentChatModel | undefined;
}

function emulationPrompt(request: ToolCallRequest): string {
  const args = request.toolCall.args as unknown;
  return `You are emulating a tool call for testing purposes.

Tool: ${request.toolCall.name}
Description: ${request.tool?.description || "No description available"}
Arguments: ${typeof args === "string" ? args : JSON.stringify(args)}

Generate a realistic response that this tool would return given these arguments.
Return ONLY the tool's output, no explanation or preamble. Introduce variation into your responses.`;
}

/**
 * Emulates tools with a model instead of running them, as LangChain.js's
 * `toolEmulatorMiddleware` (for tests and prototypes). For each emulated tool call the model is
 * asked, with one human message describing the tool, its description and its arguments, to
 * produce the tool's output; its answer becomes the call's `ToolMessage` (content blocks are
 * JSON-encoded). Tools not listed in `tools` run as usual. The emulating model is `model` (a
 * string is made with `initChatModel(model, { temperature: 1 })`; if that fails the agent's
 * model is used, with a `console.error`) or the agent's own model. The emulation call is
 * tagged `"nostream"` and has `metadata.lc_source: "toolEmulation"`.
 *
 * @example
 * ```ts
 * import { createAgent, toolEmulatorMiddleware } from "agentgraph/agents";
 *
 * const agent = createAgent({
 *   model: "openai:gpt-4.1-mini",
 *   tools: [getWeather, sendEmail],
 *   middleware: [toolEmulatorMiddleware({ tools: ["send_email"] })],
 * });
 * ```
 */
export function toolEmulatorMiddleware(
  options: ToolEmulatorOptions = {},
): AgentMiddleware<Record<never, never>, Record<string, unknown>> {
  const { tools, model } = options;
  const emulateAll = tools === undefined || tools.length === 0;
  const emulated = new Set<string>();
  for (const entry of tools ?? []) emulated.add(typeof entry === "string" ? entry : String(entry.name));
  let agentModel: AgentChatModel | undefined;
  let fromString: Promise<AgentChatModel | undefined> | undefined;

  const emulatorModel = async (): Promise<AgentChatModel> => {
    let chosen: AgentChatModel | undefined;
    if (typeof model === "object" && model !== null) chosen = model;
    else if (typeof model === "string") {
      fromString ??= initChatModel(model, { temperature: 1 }).then(
        (created): AgentChatModel => created,
        (error: unknown) => {
          console.error("Error initializing emulator model, using agent model:", error);
          return agentModel;
        },
      );
      chosen = (await fromString) ?? agentModel;
    } else chosen = agentModel;
    if (chosen === undefined) {
      throw new InvalidArgumentError(
        'toolEmulatorMiddleware has no model to emulate tools with: pass `model` (an instance or a string such as "openai:gpt-4.1-mini"), or use it inside createAgent, whose model it uses by default.',
      );
    }
    return chosen;
  };

  return createMiddleware({
    name: "ToolEmulatorMiddleware",
    wrapModelCall: (request: ModelRequest, handler: ModelCallHandler) => {
      agentModel = request.model;
      return handler(request);
    },
    wrapToolCall: async (request: ToolCallRequest, handler: ToolCallHandler): Promise<ToolCallResult> => {
      const toolName = request.toolCall.name;
      if (!emulateAll && !emulated.has(toolName)) return handler(request);
      const emulator = await emulatorModel();
      const signal = request.runtime.signal;
      const response = await emulator.invoke([new HumanMessage(emulationPrompt(request))], {
        metadata: { lc_source: "toolEmulation" },
        tags: ["nostream"],
        ...(signal === undefined ? {} : { signal }),
      });
      const content =
        typeof response.content === "string" ? response.content : JSON.stringify(response.content);
      return new ToolMessage({ content, tool_call_id: request.toolCall.id ?? "", name: toolName });
    },
  });
}
