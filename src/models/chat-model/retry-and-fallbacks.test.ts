import { describe, expect, it } from "vitest";
import { AIMessage } from "../../messages/index.js";
import { BaseChatModel } from "./base-chat-model.js";
import type { ChatResult } from "./types.js";

/** Fails its first `failures` calls (with `error`), then answers which call it was. */
class Flaky extends BaseChatModel {
  calls = 0;
  constructor(
    private readonly failures: number,
    private readonly error: () => Error = () => new Error(`fail ${this.calls}`),
  ) {
    super({});
  }
  _llmType(): string {
    return "flaky";
  }
  async _generate(): Promise<ChatResult> {
    this.calls += 1;
    if (this.calls <= this.failures) throw this.error();
    return { generations: [{ text: "", message: new AIMessage(`ok after ${this.calls}`) }] };
  }
}

describe("withRetry", () => {
  it("retries invoke after a backoff and reports each failure", async () => {
    const model = new Flaky(1);
    const failures: string[] = [];
    const started = Date.now();
    const reply = await model
      .withRetry({
        stopAfterAttempt: 2,
        onFailedAttempt: (error, input) => failures.push(`${error.message} ${String(input)}`),
      })
      .invoke("hi");
    expect(reply.content).toBe("ok after 2");
    expect(failures).toEqual(["fail 1 hi"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("tags each retried call's run retry:attempt:<n>, before the call's and the model's tags (as LangChain.js)", async () => {
    // expected values: @langchain/core 1.4.0 (found by differential testing)
    const model = new Flaky(1);
    model.tags = ["ct"];
    const tags: Array<string[] | undefined> = [];
    await model.withRetry({ stopAfterAttempt: 2 }).invoke("hi", {
      tags: ["t1"],
      callbacks: [
        { handleChatModelStart: (_llm, _messages, _runId, _parent, _extra, runTags) => tags.push(runTags) },
      ],
    });
    expect(tags).toEqual([
      ["t1", "ct"],
      ["retry:attempt:2", "t1", "ct"],
    ]);
  });

  it("stops after stopAfterAttempt calls, and at once for a TypeError", async () => {
    const once = new Flaky(5);
    await expect(once.withRetry({ stopAfterAttempt: 1 }).invoke("x")).rejects.toThrow("fail 1");
    expect(once.calls).toBe(1);
    const buggy = new Flaky(5, () => new TypeError("bad code"));
    await expect(buggy.withRetry().invoke("x")).rejects.toThrow("bad code");
    expect(buggy.calls).toBe(1);
  });
});

describe("withFallbacks", () => {
  it("tries the fallbacks in turn and throws the first error when all fail", async () => {
    const primary = new Flaky(9);
    const second = new Flaky(9);
    const reply = await primary.withFallbacks([second, new Flaky(0)]).invoke("q");
    expect(reply.content).toBe("ok after 1");
    expect([primary.calls, second.calls]).toEqual([1, 1]);
    await expect(new Flaky(9).withFallbacks({ fallbacks: [new Flaky(9)] }).invoke("q")).rejects.toThrow(
      "fail 1",
    );
  });

  it("falls back when a stream fails to open", async () => {
    const chunks: unknown[] = [];
    for await (const chunk of await new Flaky(9).withFallbacks([new Flaky(0)]).stream("q"))
      chunks.push(chunk.content);
    expect(chunks).toEqual(["ok after 1"]);
  });
});
