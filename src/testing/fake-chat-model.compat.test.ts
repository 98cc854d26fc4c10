/**
 * `FakeChatModel` without `responses` against LangChain.js's `FakeChatModel`
 * (`@langchain/core/utils/testing`, a dev dependency): a ported test that builds the fake with no
 * script gets the same answers, stream and token callbacks.
 */
import * as lcMessages from "@langchain/core/messages";
import { FakeChatModel as LcFakeChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { HumanMessage, SystemMessage } from "../messages/index.js";
import { FakeChatModel } from "./index.js";

interface Run {
  text: unknown;
  stopped: unknown;
  streamed: unknown[];
  tokens: string[];
}

type Model = {
  invoke(input: unknown, options?: Record<string, unknown>): Promise<{ content: unknown; id?: string }>;
  stream(input: unknown): Promise<AsyncIterable<{ content: unknown }>>;
};

async function exercise(model: Model, messages: unknown[]): Promise<Run> {
  const answer = await model.invoke(messages);
  const stopped = await model.invoke("x", { stop: ["STOP", "later"] });
  const streamed: unknown[] = [];
  for await (const chunk of await model.stream("streamed text")) streamed.push(chunk.content);
  const tokens: string[] = [];
  await model.invoke("tok", { callbacks: [{ handleLLMNewToken: (token: string) => tokens.push(token) }] });
  return { text: answer.content, stopped: stopped.content, streamed, tokens };
}

describe("FakeChatModel without responses (LangChain.js's echoing fake)", () => {
  it("answers, streams and reports tokens as LangChain.js's FakeChatModel", async () => {
    const blocks = [{ type: "text", text: "hi" }];
    const ours = await exercise(new FakeChatModel() as unknown as Model, [
      new SystemMessage("sys"),
      new HumanMessage({ content: blocks }),
    ]);
    const theirs = await exercise(new LcFakeChatModel({}) as unknown as Model, [
      new lcMessages.SystemMessage("sys"),
      new lcMessages.HumanMessage({ content: blocks }),
    ]);
    expect(ours).toEqual(theirs);
    expect(ours.text).toBe('sys\n[\n  {\n    "type": "text",\n    "text": "hi"\n  }\n]');
  });
});
