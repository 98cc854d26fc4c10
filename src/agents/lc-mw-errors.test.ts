import { describe, expect, it } from "vitest";
import { GraphInterrupt } from "../index.js";
import { FakeChatModel } from "../testing/index.js";
import { question } from "./agent.test-helpers.js";
import { createAgent, createMiddleware, MiddlewareError } from "./index.js";

describe("MiddlewareError helpers (LangChain.js parity)", () => {
  it("isInstance recognises the error a failing wrap hook raises, and nothing else", async () => {
    const guard = createMiddleware({
      name: "guard",
      wrapModelCall: () => {
        throw new TypeError("refused");
      },
    });
    const error = await createAgent({
      model: new FakeChatModel({ responses: ["unused"] }),
      middleware: [guard],
    })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(MiddlewareError.isInstance(error)).toBe(true);
    expect(MiddlewareError.isInstance(new TypeError("refused"))).toBe(false);
    expect(MiddlewareError.isInstance("refused")).toBe(false);
    expect(MiddlewareError.isInstance(undefined)).toBe(false);
  });

  it("wrap takes just the error and the middleware name", () => {
    const original = new RangeError("out of range");
    const wrapped = MiddlewareError.wrap(original, "limits");
    expect(MiddlewareError.isInstance(wrapped)).toBe(true);
    expect(wrapped.message).toBe("out of range");
    expect(wrapped.name).toBe("RangeError");
    expect(wrapped.cause).toBe(original);
    expect((wrapped as MiddlewareError).middlewareName).toBe("limits");
    expect((wrapped as MiddlewareError).hook).toBeUndefined();
    expect(wrapped.stack).toContain('in middleware "limits"');
  });

  it("wrap turns a thrown value into a MiddlewareError named after the middleware", () => {
    const wrapped = MiddlewareError.wrap("just text", "audit");
    expect(wrapped).toBeInstanceOf(MiddlewareError);
    expect(wrapped.message).toBe("just text");
    expect(wrapped.name).toBe("AuditError");
  });

  it("wrap hands an interrupt back untouched", () => {
    const interrupt = new GraphInterrupt([{ id: "i1", value: "approve?" }]);
    expect(MiddlewareError.wrap(interrupt, "review")).toBe(interrupt);
  });
});

describe("createMiddleware keeps streamTransformers", () => {
  it("exposes the given stream transformer factories on the middleware", () => {
    const factory = () => ({ init: () => ({}), process: () => true });
    const middleware = createMiddleware({ name: "Streaming", streamTransformers: [factory] });
    expect((middleware as { streamTransformers?: unknown }).streamTransformers).toEqual([factory]);
  });

  it("leaves the property out when none are given", () => {
    const middleware = createMiddleware({ name: "Plain" });
    expect("streamTransformers" in middleware).toBe(false);
  });
});
