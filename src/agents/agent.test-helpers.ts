import type { AIMessage, BaseMessage } from "../messages/index.js";
import type { ChatResult, ModelProfile } from "../models/index.js";
import { FakeChatModel } from "../testing/index.js";
import { createMiddleware } from "./index.js";

// the message and tool builders the createReactAgent tests use
export {
  answer,
  asking,
  call,
  lookup,
  outline,
  question,
  search,
} from "../prebuilt/create-react-agent.test-helpers.js";

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

/**
 * A middleware (named `name`) whose `beforeModel` or `afterModel` hook jumps to the model the
 * first time it runs.
 */
export function jumpToModelOnce(hook: "beforeModel" | "afterModel" = "beforeModel", name = "Once") {
  let jumped = false;
  return createMiddleware({
    name,
    [hook]: {
      canJumpTo: ["model"],
      hook: () => {
        if (jumped) return undefined;
        jumped = true;
        return { jumpTo: "model" as const };
      },
    },
  });
}
