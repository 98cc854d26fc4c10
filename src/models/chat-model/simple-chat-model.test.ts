import { describe, expect, it } from "vitest";
import { AIMessage, type BaseMessage } from "../../messages/index.js";
import { InvalidArgumentError } from "../../shared/index.js";
import { SimpleChatModel } from "./simple-chat-model.js";

class Shout extends SimpleChatModel {
  _llmType(): string {
    return "shout";
  }
  async _call(messages: BaseMessage[]): Promise<string> {
    return (messages.at(-1)?.text ?? "").toUpperCase();
  }
}

describe("SimpleChatModel", () => {
  it("answers with the text _call returns", async () => {
    const reply = await new Shout({}).invoke("hi there");
    expect(reply).toBeInstanceOf(AIMessage);
    expect(reply.content).toBe("HI THERE");
  });

  it("rejects a _call that returns something other than a string", async () => {
    class Broken extends Shout {
      override async _call(): Promise<string> {
        return [{ type: "text", text: "x" }] as unknown as string;
      }
    }
    const error = await new Broken({}).invoke("x").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(
      /^Cannot generate with a simple chat model when output is not a string\./,
    );
  });
});
