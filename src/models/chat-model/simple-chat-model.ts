import { AIMessage, type BaseMessage } from "../../messages/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { BaseChatModel } from "./base-chat-model.js";
import type { ChatModelRun } from "./llm-run.js";
import type { BaseChatModelCallOptions, ChatResult } from "./types.js";

/**
 * A chat model that answers with text (LangChain.js `SimpleChatModel`): subclass it and
 * implement `_llmType()` and `_call(messages, options, runManager?)` returning a string; the
 * string becomes the reply `AIMessage`.
 *
 * @example
 * ```ts
 * class Shout extends SimpleChatModel {
 *   _llmType() { return "shout"; }
 *   async _call(messages: BaseMessage[]) { return (messages.at(-1)?.text ?? "").toUpperCase(); }
 * }
 * await new Shout({}).invoke("hi"); // AIMessage("HI")
 * ```
 */
export abstract class SimpleChatModel<
  CallOptions extends BaseChatModelCallOptions = BaseChatModelCallOptions,
> extends BaseChatModel<CallOptions> {
  /** The reply's text for `messages`. */
  abstract _call(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): Promise<string>;

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): Promise<ChatResult> {
    const text: unknown = await this._call(messages, options, runManager);
    if (typeof text !== "string") {
      throw new InvalidArgumentError(
        `Cannot generate with a simple chat model when output is not a string. ` +
          `${this._llmType()}._call returned ${text === null ? "null" : typeof text}: return the reply's text.`,
      );
    }
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}
