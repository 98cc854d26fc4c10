import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AIMessage, HumanMessage, SystemMessage } from "../../messages/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { providerStrategy } from "../responses.js";
import { fakeModel } from "../testing/fake-model.js";
import { piiRedactionMiddleware } from "./pii-redaction.js";

const SSN = /\b\d{3}-?\d{2}-?\d{4}\b/g;
const MARKER = /\[REDACTED_SSN_[a-z0-9]+\]/;

afterEach(() => {
  vi.restoreAllMocks();
});

function quiet() {
  return vi.spyOn(console, "warn").mockImplementation(() => undefined);
}

describe("piiRedactionMiddleware", () => {
  it("warns that it is deprecated and is named PIIRedactionMiddleware", () => {
    const warn = quiet();
    expect(piiRedactionMiddleware().name).toBe("PIIRedactionMiddleware");
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /^DEPRECATED: piiRedactionMiddleware is deprecated\. Please use piiMiddleware/,
    );
  });

  it("hides matches from the model and gives tools the original values", async () => {
    quiet();
    const seen: string[] = [];
    const lookup = tool(
      async ({ ssn }) => {
        seen.push(ssn);
        return "John Doe";
      },
      { name: "lookup", description: "Looks up a user.", schema: z.object({ ssn: z.string() }) },
    );
    const model = fakeModel()
      .respond((messages) => {
        const marker = MARKER.exec(messages.at(-1)?.text ?? "")?.[0] ?? "none";
        return new AIMessage({
          content: `Looking up ${marker}`,
          tool_calls: [{ name: "lookup", args: { ssn: marker }, id: "c1", type: "tool_call" }],
        });
      })
      .respond(new AIMessage("Found John Doe."));
    const agent = createAgent({
      model,
      tools: [lookup],
      systemPrompt: "Be careful.",
      middleware: [piiRedactionMiddleware({ rules: { ssn: SSN } })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("Look up SSN 123-45-6789")] });
    const sent = model.calls[0]?.messages ?? [];
    expect(sent[0]).toBeInstanceOf(SystemMessage);
    expect(sent[1]?.text).toMatch(/^Look up SSN \[REDACTED_SSN_[a-z0-9]{1,9}\]$/);
    expect(sent[1]?.text).not.toContain("123-45-6789");
    expect(seen).toEqual(["123-45-6789"]);
    expect(result.messages.map((m) => m.text)).toEqual([
      "Look up SSN 123-45-6789",
      "Looking up 123-45-6789",
      "John Doe",
      "Found John Doe.",
    ]);
    // the second call redacts the restored AI message's content and arguments again
    const second = JSON.stringify(
      model.calls[1]?.messages.map((m) => [m.content, (m as AIMessage).tool_calls]),
    );
    expect(second).not.toContain("123-45-6789");
  });

  it("takes rules from the context and does nothing without rules", async () => {
    quiet();
    const model = fakeModel().respond(new AIMessage("a")).respond(new AIMessage("b"));
    const agent = createAgent({ model, middleware: [piiRedactionMiddleware()] });
    await agent.invoke({ messages: [new HumanMessage("mail me: a@b.io")] });
    expect(model.calls[0]?.messages[0]?.text).toBe("mail me: a@b.io");
    await agent.invoke(
      { messages: [new HumanMessage("mail me: a@b.io")] },
      { context: { rules: { email: /[a-z]+@[a-z.]+/g } } },
    );
    expect(model.calls[1]?.messages[0]?.text).toMatch(/^mail me: \[REDACTED_EMAIL_[a-z0-9]+\]$/);
  });

  it("restores a JSON answer and the structured response of a provider strategy", async () => {
    quiet();
    const model = fakeModel().respond((messages) => {
      const marker = MARKER.exec(messages.at(-1)?.text ?? "")?.[0] ?? "none";
      return new AIMessage(JSON.stringify({ ssn: marker }));
    });
    const agent = createAgent({
      model,
      responseFormat: providerStrategy(z.object({ ssn: z.string() })),
      middleware: [piiRedactionMiddleware({ rules: { ssn: SSN } })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("SSN 123-45-6789")] });
    expect(model.calls[0]?.messages[0]?.text).toMatch(MARKER);
    expect(result.structuredResponse).toEqual({ ssn: "123-45-6789" });
    expect(result.messages.map((m) => m.text)).toEqual(["SSN 123-45-6789", '{"ssn":"123-45-6789"}']);
  });
});
