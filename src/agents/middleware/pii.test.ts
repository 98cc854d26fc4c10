import { describe, expect, it } from "vitest";
import "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { MiddlewareError } from "../errors.js";
import type { AgentMiddleware } from "../types.js";
import {
  applyStrategy,
  type BuiltInPIIType,
  detectCreditCard,
  detectEmail,
  detectIP,
  detectMacAddress,
  detectUrl,
  PIIDetectionError,
  piiMiddleware,
  resolveRedactionRule,
} from "./pii.js";
import { sha256Hex } from "./sha256.js";

// The matches, redactions and masks below were produced by running LangChain.js 1.5.14 on the
// same text. Hashes are standard SHA-256 prefixes (as Python's hashlib): LangChain.js 1.5.14's
// bundled js-sha256 gives non-standard digests ("abc" -> f2bcc45e...), see docs/middleware-builtins.md.
const TEXT =
  "Mail john.doe@example.com or a@b.io, card 4111 1111 1111 1111 bad 4111-1111-1111-1112, ip 192.168.1.1 and 999.1.1.1, mac 00:1A:2b:3C:4d:5E, url https://example.com/x?q=1 and www.test.org.";
const EXPECTED: Record<BuiltInPIIType, { texts: string[]; redact: string; mask: string; hash: string[] }> = {
  email: {
    texts: ["john.doe@example.com", "a@b.io"],
    redact: "Mail [REDACTED_EMAIL] or [REDACTED_EMAIL], card",
    mask: "Mail j***@example.com or a***@b.io, card",
    hash: ["<email_hash:836f82db>", "<email_hash:0f3306f4>"],
  },
  credit_card: {
    texts: ["4111 1111 1111 1111"],
    redact: "card [REDACTED_CREDIT_CARD] bad 4111-1111-1111-1112",
    mask: "card ****-****-****-1111 bad",
    hash: ["<credit_card_hash:6a7e0e79>"],
  },
  ip: {
    texts: ["192.168.1.1"],
    redact: "ip [REDACTED_IP] and 999.1.1.1",
    mask: "ip *******.1.1 and",
    hash: ["<ip_hash:c5eb5a4c>"],
  },
  mac_address: {
    texts: ["00:1A:2b:3C:4d:5E"],
    redact: "mac [REDACTED_MAC_ADDRESS],",
    mask: "mac *************d:5E,",
    hash: ["<mac_address_hash:e2dc8068>"],
  },
  url: {
    texts: ["https://example.com/x?q=1", "www.test.org."],
    redact: "url [REDACTED_URL] and [REDACTED_URL]",
    mask: "url *********************?q=1 and *********org.",
    hash: ["<url_hash:72163385>", "<url_hash:906bb999>"],
  },
};
const DETECTORS = {
  email: detectEmail,
  credit_card: detectCreditCard,
  ip: detectIP,
  mac_address: detectMacAddress,
  url: detectUrl,
};

type Hook = (
  state: unknown,
  runtime: unknown,
) => Promise<{ messages: BaseMessage[] } | undefined> | { messages: BaseMessage[] } | undefined;
const hooks = (middleware: AgentMiddleware) => ({
  beforeHook: middleware.beforeModel as unknown as Hook,
  afterHook: middleware.afterModel as unknown as Hook,
});
const rt = (context: Record<string, unknown> = {}) => ({ context });

describe("built-in detectors and strategies (as the reference)", () => {
  for (const [type, expected] of Object.entries(EXPECTED) as Array<
    [BuiltInPIIType, (typeof EXPECTED)["email"]]
  >) {
    it(`${type}: detects, redacts, masks, hashes and blocks`, () => {
      const matches = DETECTORS[type](TEXT);
      expect(matches.map((m) => m.text)).toEqual(expected.texts);
      for (const m of matches) expect(TEXT.slice(m.start, m.end)).toBe(m.text);
      expect(applyStrategy(TEXT, matches, "redact", type)).toContain(expected.redact);
      expect(applyStrategy(TEXT, matches, "mask", type)).toContain(expected.mask);
      const hashed = applyStrategy(TEXT, matches, "hash", type);
      for (const h of expected.hash) expect(hashed).toContain(h);
      expect(() => applyStrategy(TEXT, matches, "block", type)).toThrow(
        `PII detected: ${type} found ${matches.length} occurrence(s)`,
      );
    });
  }

  it("leaves text without matches unchanged, even for block", () => {
    expect(applyStrategy("nothing", [], "block", "email")).toBe("nothing");
  });

  it("PIIDetectionError carries the type and the matches", () => {
    const matches = detectEmail("a@b.io");
    try {
      applyStrategy("a@b.io", matches, "block", "email");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PIIDetectionError);
      expect((error as PIIDetectionError).piiType).toBe("email");
      expect((error as PIIDetectionError).matches).toEqual([{ text: "a@b.io", start: 0, end: 6 }]);
      expect((error as Error).name).toBe("PIIDetectionError");
    }
  });

  it("sha256 matches the standard digests", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("a".repeat(1000))).toBe(
      "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3",
    );
  });
});

describe("resolveRedactionRule", () => {
  it("accepts a pattern string, a RegExp (global or not) and a function", () => {
    const text = "T-1 and T-22";
    expect(
      resolveRedactionRule({ piiType: "ticket", strategy: "redact", detector: "T-\\d+" }).detector(text),
    ).toHaveLength(2);
    expect(
      resolveRedactionRule({ piiType: "ticket", strategy: "redact", detector: /T-\d+/ }).detector(text),
    ).toHaveLength(2);
    const global = /T-\d+/g;
    const rule = resolveRedactionRule({ piiType: "ticket", strategy: "redact", detector: global });
    expect(rule.detector(text)).toHaveLength(2);
    expect(rule.detector(text)).toHaveLength(2);
    const fn = () => [{ text: "x", start: 0, end: 1 }];
    expect(resolveRedactionRule({ piiType: "x", strategy: "mask", detector: fn }).detector).toBe(fn);
  });

  it("rejects an unknown type without a detector", () => {
    expect(() => piiMiddleware("passport")).toThrow(
      "Unknown PII type: passport. Must be one of: email, credit_card, ip, mac_address, url, or provide a custom detector.",
    );
    expect(() => piiMiddleware("toString")).toThrow("Unknown PII type: toString");
  });
});

describe("piiMiddleware hooks", () => {
  it("is named after the type and redacts the last human message by default", async () => {
    const middleware = piiMiddleware("email");
    expect(middleware.name).toBe("PIIMiddleware[email]");
    const { beforeHook } = hooks(middleware);
    const messages = [
      new HumanMessage({ id: "h0", content: "old a@b.io" }),
      new AIMessage({ id: "a0", content: "ok" }),
      new HumanMessage({ id: "h1", content: "mail me at a@b.io", name: "ann" }),
    ];
    const update = await beforeHook({ messages }, rt());
    // the whole list with the redacted message in place, as LangChain.js returns it
    expect(update?.messages.map((m) => [m.getType(), m.id, m.name, m.text])).toEqual([
      ["human", "h0", undefined, "old a@b.io"],
      ["ai", "a0", undefined, "ok"],
      ["human", "h1", "ann", "mail me at [REDACTED_EMAIL]"],
    ]);
    expect(messages[2]?.text).toBe("mail me at a@b.io");
  });

  it("processes text blocks of block content", async () => {
    const { beforeHook } = hooks(piiMiddleware("email"));
    const update = await beforeHook(
      {
        messages: [
          new HumanMessage({
            id: "h",
            content: [
              { type: "text", text: "to a@b.io" },
              { type: "image_url", image_url: { url: "x" } },
            ],
          }),
        ],
      },
      rt(),
    );
    expect(update?.messages[0]?.content).toEqual([
      { type: "text", text: "to [REDACTED_EMAIL]" },
      { type: "image_url", image_url: { url: "x" } },
    ]);
  });

  it("returns nothing when no PII is found or every flag is off", async () => {
    const { beforeHook, afterHook } = hooks(piiMiddleware("email"));
    expect(await beforeHook({ messages: [new HumanMessage("clean")] }, rt())).toBeUndefined();
    expect(
      await beforeHook({ messages: [new HumanMessage("a@b.io")] }, rt({ applyToInput: false })),
    ).toBeUndefined();
    expect(await afterHook({ messages: [new AIMessage("a@b.io")] }, rt())).toBeUndefined();
    expect(await beforeHook({ messages: [] }, rt())).toBeUndefined();
  });

  it("applyToToolResults handles the tool messages after the last AI message", async () => {
    const { beforeHook } = hooks(
      piiMiddleware("ip", { strategy: "mask", applyToInput: false, applyToToolResults: true }),
    );
    const messages = [
      new ToolMessage({ id: "t0", content: "10.0.0.1", tool_call_id: "old" }),
      new AIMessage({ id: "a", content: "", tool_calls: [{ name: "lookup", args: {}, id: "c1" }] }),
      new ToolMessage({ id: "t1", content: "host at 10.0.0.12", tool_call_id: "c1", name: "lookup" }),
    ];
    const update = await beforeHook({ messages }, rt());
    const redacted = update?.messages[2] as ToolMessage | undefined;
    expect(update?.messages).toHaveLength(3);
    expect(update?.messages.slice(0, 2)).toEqual(messages.slice(0, 2));
    expect(redacted?.text).toBe("host at *****0.12");
    expect(redacted?.tool_call_id).toBe("c1");
    expect(redacted?.name).toBe("lookup");
    expect(redacted?.id).toBe("t1");
  });

  it("applyToOutput handles the last AI message, keeping its tool calls", async () => {
    const { afterHook } = hooks(piiMiddleware("email", { strategy: "hash", applyToOutput: true }));
    const update = await afterHook(
      {
        messages: [
          new HumanMessage({ id: "h", content: "send it" }),
          new AIMessage({
            id: "a1",
            content: "write a@b.io",
            tool_calls: [{ name: "send", args: { to: "x" }, id: "c1" }],
          }),
        ],
      },
      rt(),
    );
    expect(update?.messages).toHaveLength(2);
    const message = update?.messages[1] as AIMessage;
    expect(message.text).toBe(`write <email_hash:${sha256Hex("a@b.io").slice(0, 8)}>`);
    expect(message.id).toBe("a1");
    expect(message.tool_calls.map((c) => c.id)).toEqual(["c1"]);
  });

  it("flags come from the run's context first", async () => {
    const { beforeHook, afterHook } = hooks(piiMiddleware("email", { applyToInput: true }));
    expect(
      await beforeHook({ messages: [new HumanMessage("a@b.io")] }, rt({ applyToInput: false })),
    ).toBeUndefined();
    expect(
      await afterHook({ messages: [new AIMessage("a@b.io")] }, rt({ applyToOutput: true })),
    ).toBeDefined();
  });
});

describe("piiMiddleware in an agent", () => {
  it("the model sees the redacted input and the state keeps it", async () => {
    const model = new FakeChatModel({ responses: ["Reach 4111 1111 1111 1111"] });
    const agent = createAgent({
      model,
      middleware: [
        piiMiddleware("email"),
        piiMiddleware("credit_card", { strategy: "mask", applyToOutput: true }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("I am a@b.io")] });
    expect(model.calls[0]?.map((m) => m.text)).toEqual(["I am [REDACTED_EMAIL]"]);
    expect(result.messages.map((m) => m.text)).toEqual([
      "I am [REDACTED_EMAIL]",
      "Reach ****-****-****-1111",
    ]);
  });

  it("redacts tool results before the next model call", async () => {
    const lookup = tool(async () => "owner: bob@corp.com", {
      name: "lookup",
      description: "Look up.",
      schema: { type: "object", properties: {} },
    });
    const model = new FakeChatModel({
      responses: [
        new AIMessage({
          content: "",
          tool_calls: [{ name: "lookup", args: {}, id: "c1", type: "tool_call" }],
        }),
        "done",
      ],
    });
    const agent = createAgent({
      model,
      tools: [lookup],
      middleware: [piiMiddleware("email", { applyToToolResults: true })],
    });
    await agent.invoke({ messages: [new HumanMessage("who?")] });
    expect(model.calls[1]?.at(-1)?.text).toBe("owner: [REDACTED_EMAIL]");
  });

  it("block stops the run with a PIIDetectionError", async () => {
    const model = new FakeChatModel({ responses: ["never"] });
    const agent = createAgent({ model, middleware: [piiMiddleware("url", { strategy: "block" })] });
    const failure = agent.invoke({ messages: [new HumanMessage("see https://x.io")] });
    await expect(failure).rejects.toThrow("PII detected: url found 1 occurrence(s)");
    const error = await failure.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(MiddlewareError);
    expect(error).toBeInstanceOf(PIIDetectionError);
    expect(model.calls).toHaveLength(0);
  });
});
