import { AIMessage, type BaseMessage, type ToolCall } from "../../../messages/index.js";
import { BaseChatModel } from "../../chat-model/base-chat-model.js";
import type { BaseChatModelParams, ChatResult } from "../../chat-model/types.js";

/** A tool as `bindTools` hands it to `_generate` (OpenAI function format). */
interface OfferedTool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: JsonSchemaObject };
}

interface JsonSchemaObject {
  properties?: Record<string, { type?: string | string[]; description?: string; enum?: unknown[] }>;
  required?: string[];
}

/**
 * Options of {@link DemoChatModel}.
 *
 * @example
 * ```ts
 * const fields: DemoChatModelFields = { name: "demo" };
 * ```
 */
export interface DemoChatModelFields extends BaseChatModelParams {
  /** Shown in `response_metadata.model_name` (default `"agentgraph-demo"`). */
  name?: string;
}

const WORD = /[\p{L}\p{N}_-]+/gu;

/**
 * An offline stand-in for a chat model, for demos and examples that must run without an API key
 * or network. It is not a language model and never pretends to be one: it plays a fixed
 * tool-calling conversation. Given a question and tools, it calls the tool whose name and
 * description share the most words with the question, filling the tool's required arguments from
 * the question (a capitalized word for names and places, the first number for numbers, else the
 * question itself); once every call is answered, it replies by quoting the tool results. Without
 * tools it says what it is. Its answers start from the conversation alone, so runs are
 * deterministic.
 *
 * @example
 * ```ts
 * const model = new DemoChatModel().bindTools([getWeather]);
 * const reply = await model.invoke([new HumanMessage("What is the weather in Suzhou?")]);
 * reply.tool_calls[0]; // { name: "get_weather", args: { city: "Suzhou" }, id: "call_demo_1", type: "tool_call" }
 * ```
 */
export class DemoChatModel extends BaseChatModel {
  readonly modelName: string;

  constructor(fields: DemoChatModelFields = {}) {
    super(fields);
    this.modelName = fields.name ?? "agentgraph-demo";
  }

  _llmType(): string {
    return "agentgraph-demo";
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const offered = ((options as { tools?: unknown }).tools ?? []) as OfferedTool[];
    const message = this.reply(messages, offered);
    return { generations: [{ text: message.text, message }] };
  }

  private reply(messages: BaseMessage[], offered: OfferedTool[]): AIMessage {
    const turn = messages.filter((m) => m.getType() === "ai").length + 1;
    const metadata = { model_name: this.modelName, finish_reason: "stop" };
    const last = messages[messages.length - 1];
    if (last?.getType() === "tool") {
      // answer with what the tools of the last round returned
      const results: string[] = [];
      for (let i = messages.length - 1; i >= 0 && messages[i]?.getType() === "tool"; i--) {
        const result = messages[i] as BaseMessage & { name?: string };
        results.unshift(result.name ? `${result.name}: ${result.text}` : result.text);
      }
      return new AIMessage({
        content: `(offline demo model) Here is what the tools returned — ${results.join(" ")}`,
        id: `demo-${turn}`,
        response_metadata: metadata,
      });
    }
    const question = [...messages].reverse().find((m) => m.getType() === "human")?.text ?? "";
    const tool = pickTool(question, offered);
    if (tool?.function?.name !== undefined) {
      const call: ToolCall = {
        name: tool.function.name,
        args: argumentsFor(question, tool.function.parameters),
        id: `call_demo_${turn}`,
        type: "tool_call",
      };
      return new AIMessage({
        content: "",
        id: `demo-${turn}`,
        tool_calls: [call],
        response_metadata: { ...metadata, finish_reason: "tool_calls" },
      });
    }
    return new AIMessage({
      content:
        "(offline demo model) I am agentgraph's offline demo model, not a language model: give me tools " +
        "and I will call the one that matches your question. Set AGENTGRAPH_MODEL (and an API key) to use a real model.",
      id: `demo-${turn}`,
      response_metadata: metadata,
    });
  }
}

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(WORD) ?? []).flatMap((w) => w.split(/[_-]/)));
}

/** The offered tool sharing the most words with the question (the first one on a tie). */
function pickTool(question: string, offered: OfferedTool[]): OfferedTool | undefined {
  const asked = words(question);
  let best: OfferedTool | undefined;
  let bestScore = -1;
  for (const tool of offered) {
    const about = words(`${tool.function?.name ?? ""} ${tool.function?.description ?? ""}`);
    let score = 0;
    for (const word of about) if (asked.has(word)) score++;
    if (score > bestScore) {
      best = tool;
      bestScore = score;
    }
  }
  return best;
}

/** Values for the required arguments of a tool, taken from the question. */
function argumentsFor(question: string, parameters: JsonSchemaObject | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = parameters?.properties ?? {};
  const required = parameters?.required ?? Object.keys(properties);
  // a capitalized word past the first one: names of cities, people, products
  const names = (question.match(WORD) ?? []).slice(1).filter((w) => /^\p{Lu}/u.test(w));
  const number = question.match(/-?\d+(\.\d+)?/)?.[0];
  for (const key of required) {
    const property = properties[key] ?? {};
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    if (property.enum !== undefined && property.enum.length > 0) args[key] = property.enum[0];
    else if (type === "number" || type === "integer") args[key] = number === undefined ? 0 : Number(number);
    else if (type === "boolean") args[key] = true;
    else args[key] = names[names.length - 1] ?? question;
  }
  return args;
}
