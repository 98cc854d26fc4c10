import { z } from "zod";
import { AIMessage, type BaseMessage, HumanMessage, type ToolCall } from "../messages/index.js";
import type { ChatResult, ModelProfile } from "../models/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";

/** A tool call as a model would return it. */
export function call(name: string, args: Record<string, unknown>, id: string): ToolCall {
  return { name, args, id, type: "tool_call" };
}

/** An AI message asking for the given calls. */
export function asking(id: string, ...calls: ToolCall[]): AIMessage {
  return new AIMessage({ id, content: "", tool_calls: calls });
}

/** An AI message with a final answer. */
export function answer(id: string, content: string): AIMessage {
  return new AIMessage({ id, content });
}

/** The user's question. */
export function question(content = "hi"): { messages: BaseMessage[] } {
  return { messages: [new HumanMessage({ content, id: "h1" })] };
}

/** `type:content` of each message. */
export function outline(messages: readonly BaseMessage[]): string[] {
  return messages.map(
    (m) => `${m.getType()}:${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`,
  );
}

/** A tool that echoes its query. */
export const search = tool(async ({ query }: { query: string }) => `results for ${query}`, {
  name: "search",
  description: "Search the web.",
  schema: z.object({ query: z.string() }),
});

/** A return-direct tool. */
export const lookup = tool(async ({ key }: { key: string }) => `value of ${key}`, {
  name: "lookup",
  description: "Look a key up; the result is final.",
  schema: z.object({ key: z.string() }),
  returnDirect: true,
});

/** What one model call was given besides messages. */
export interface RecordedOptions {
  tools: string[];
  toolChoice: unknown;
  responseFormat: unknown;
  options: Record<string, unknown>;
}

/** A FakeChatModel that also records the tools and options of each call, with an optional profile. */
export class RecordingModel extends FakeChatModel {
  readonly options: RecordedOptions[] = [];
  readonly #profile: ModelProfile;

  constructor(responses: Array<AIMessage | string>, profile: ModelProfile = {}) {
    super({ responses });
    this.#profile = profile;
  }

  override get profile(): ModelProfile {
    return this.#profile;
  }

  override async _generate(
    messages: BaseMessage[],
    options: Record<string, unknown> = {},
  ): Promise<ChatResult> {
    const tools = (options.tools as Array<{ function?: { name: string } }> | undefined) ?? [];
    this.options.push({
      tools: tools.map((t) => t.function?.name ?? "?"),
      toolChoice: options.tool_choice,
      responseFormat: options.response_format,
      options,
    });
    return super._generate(messages);
  }
}
