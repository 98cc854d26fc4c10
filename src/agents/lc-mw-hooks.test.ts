import { describe, expect, it } from "vitest";
import { Command } from "../index.js";
import { FakeChatModel } from "../testing/index.js";
import { question } from "./agent.test-helpers.js";
import { createAgent, createMiddleware, type JumpTo } from "./index.js";

/** A hook result whose `jumpTo` is `value`, typed as a hook update (JavaScript callers may pass anything). */
const jumpingTo = (value: unknown) => ({ jumpTo: value as JumpTo });

describe("node hooks: a jumpTo that asks for no jump (LangChain.js parity)", () => {
  it("treats jumpTo: null in an update as no jump, even without canJumpTo", async () => {
    const calls: string[] = [];
    const m = createMiddleware({
      name: "Gate",
      beforeModel: () => {
        calls.push("beforeModel");
        return jumpingTo(null);
      },
    });
    const result = await createAgent({
      model: new FakeChatModel({ responses: ["answer"] }),
      middleware: [m],
    }).invoke(question());
    expect(calls).toEqual(["beforeModel"]);
    expect(result.messages.map((message) => message.text)).toEqual([
      question().messages[0]?.content,
      "answer",
    ]);
  });

  it("treats jumpTo: false as no jump, and still applies the rest of the update", async () => {
    const m = createMiddleware({
      name: "Gate",
      afterModel: { canJumpTo: ["end"], hook: () => ({ ...jumpingTo(false), messages: [] }) },
      afterAgent: () => undefined,
    });
    const result = await createAgent({
      model: new FakeChatModel({ responses: ["done"] }),
      middleware: [m],
    }).invoke(question());
    expect(result.messages.at(-1)?.text).toBe("done");
  });

  it("treats jumpTo: null in a returned Command's update as no jump", async () => {
    const m = createMiddleware({
      name: "Gate",
      beforeModel: () => new Command({ update: jumpingTo(null) }),
    });
    const result = await createAgent({
      model: new FakeChatModel({ responses: ["ok"] }),
      middleware: [m],
    }).invoke(question());
    expect(result.messages.at(-1)?.text).toBe("ok");
  });

  it("still rejects a string target the hook did not declare", async () => {
    const m = createMiddleware({ name: "Gate", beforeModel: () => jumpingTo("end") });
    await expect(
      createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] }).invoke(question()),
    ).rejects.toThrow("Invalid jump target: end, no beforeModel.canJumpTo defined in middleware Gate.");
  });

  it("still rejects a truthy target that is not a string", async () => {
    const m = createMiddleware({
      name: "Gate",
      beforeModel: { canJumpTo: ["end"], hook: () => jumpingTo(1) },
    });
    await expect(
      createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] }).invoke(question()),
    ).rejects.toThrow("Invalid jump target: 1, must be one of: end.");
  });
});

describe("node hooks: what a hook may return", () => {
  it("takes false (a `condition && update` that did not hold) as no update", async () => {
    const enabled = false as boolean;
    const m = createMiddleware({
      name: "Maybe",
      beforeModel: () => (enabled && { messages: [] }) as never,
    });
    const result = await createAgent({
      model: new FakeChatModel({ responses: ["fine"] }),
      middleware: [m],
    }).invoke(question());
    expect(result.messages.at(-1)?.text).toBe("fine");
  });

  it("still rejects other values that are not updates", async () => {
    const m = createMiddleware({ name: "Odd", beforeModel: () => 42 as never });
    await expect(
      createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] }).invoke(question()),
    ).rejects.toThrow('Invalid return value from beforeModel in middleware "Odd"');
  });
});
