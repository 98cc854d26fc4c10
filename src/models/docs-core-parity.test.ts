// Chat-model behaviours checked side by side against @langchain/core 1.4 while running its
// documentation's custom-model sample; each case pins the value the reference produced.
import { describe, expect, it } from "vitest";
import { AIMessage, AIMessageChunk, type BaseMessage } from "../messages/index.js";
import { BaseChatModel } from "./chat-model/base-chat-model.js";
import { ChatGenerationChunk } from "./chat-model/chat-generation-chunk.js";
import type { ChatModelRun } from "./chat-model/llm-run.js";
import type { ChatResult } from "./chat-model/types.js";

/** Answers with the first `keep` characters of the first message, counting them as tokens. */
class PrefixModel extends BaseChatModel {
  readonly keep: number;

  constructor(keep: number) {
    super({});
    this.keep = keep;
  }

  _llmType(): string {
    return "prefix";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const first = messages[0]?.content;
    if (typeof first !== "string") throw new Error("only text input");
    const text = first.slice(0, this.keep);
    return {
      generations: [{ message: new AIMessage(text), text }],
      llmOutput: { tokenUsage: { used: this.keep } },
    };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    runManager?: ChatModelRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const first = messages[0]?.content;
    if (typeof first !== "string") throw new Error("only text input");
    for (const char of first.slice(0, this.keep)) {
      yield new ChatGenerationChunk({ text: char, message: new AIMessageChunk({ content: char }) });
      await runManager?.handleLLMNewToken(char);
    }
  }
}

describe("docs samples: a custom chat model", () => {
  it("invoke answers through _generate and copies llmOutput into response_metadata", async () => {
    const answer = await new PrefixModel(4).invoke([["human", "Hello there"]]);
    expect(AIMessage.isInstance(answer)).toBe(true);
    expect(answer.content).toBe("Hell");
    expect(answer.response_metadata).toEqual({ tokenUsage: { used: 4 } });
  });

  it("stream yields one chunk per character under one id", async () => {
    const parts: string[] = [];
    const ids = new Set<string | undefined>();
    for await (const chunk of await new PrefixModel(3).stream("abcdef")) {
      parts.push(String(chunk.content));
      ids.add(chunk.id);
    }
    expect(parts).toEqual(["a", "b", "c"]);
    expect(ids.size).toBe(1);
  });

  it("reports tokens to callbacks only while streaming, then the joined text", async () => {
    const seen: string[] = [];
    const handler = {
      handleChatModelStart() {
        seen.push("start");
      },
      handleLLMNewToken(token: string) {
        seen.push(`token:${token}`);
      },
      handleLLMEnd(output: { generations: Array<Array<{ text: string }>> }) {
        seen.push(`end:${output.generations[0]?.[0]?.text}`);
      },
    };
    await new PrefixModel(2).invoke("xyz", { callbacks: [handler] });
    expect(seen).toEqual(["start", "end:xy"]);
    seen.length = 0;
    for await (const _ of await new PrefixModel(2).stream("xyz", { callbacks: [handler] })) {
      // drain
    }
    expect(seen).toEqual(["start", "token:x", "token:y", "end:xy"]);
  });

  it("rejects with the subclass's own error", async () => {
    await expect(
      new PrefixModel(2).invoke([{ role: "user", content: [{ type: "text", text: "x" }] }]),
    ).rejects.toThrow("only text input");
  });
});
