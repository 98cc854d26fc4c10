import { afterEach, describe, expect, it, vi } from "vitest";
import { type CallbackHandler, notifyHandlers, notifyRaising } from "./callbacks.js";

describe("notifyHandlers: a failing handler is logged as LangChain.js logs it", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("warns `Error in handler <name>, <method>: <error>`, and the other handlers still hear the call", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    class Tracer implements CallbackHandler {
      async handleLLMEnd() {
        throw new Error("async boom");
      }
    }
    const heard: string[] = [];
    const handlers: CallbackHandler[] = [
      {
        handleToolEnd: () => {
          throw new Error("boom");
        },
        // a chat model's start is named handleLLMStart in the message, as in LangChain.js
        handleChatModelStart: () => {
          throw new TypeError("bad");
        },
      },
      new Tracer(),
      { handleToolEnd: () => heard.push("second") },
      {
        raiseError: true,
        handleToolError: () => {
          throw new Error("loud");
        },
      },
    ];
    notifyHandlers(handlers, "handleToolEnd", "out", "run");
    notifyHandlers(handlers, "handleChatModelStart", { id: ["m"] }, [[]], "run");
    notifyHandlers(handlers, "handleLLMEnd", { generations: [] }, "run");
    notifyHandlers(handlers, "handleToolError", new Error("x"), "run");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(heard).toEqual(["second"]);
    expect(warn.mock.calls).toEqual([
      ["Error in handler Handler, handleToolEnd: Error: boom"],
      ["Error in handler Handler, handleLLMStart: TypeError: bad"],
      ["Error in handler Tracer, handleLLMEnd: Error: async boom"],
    ]);
    // a handler that asks for its errors to be raised is logged as an error (the call goes on)
    expect(error.mock.calls).toEqual([["Error in handler Handler, handleToolError: Error: loud"]]);
  });
});

describe("notifyHandlers: the name of a plain-object handler in the message", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("is `Object` when the object has a `name` (LangChain.js uses it as it is), `Handler` otherwise", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const fail = () => {
      throw new Error("boom");
    };
    const named = { name: "guards", handleLLMEnd: fail } as CallbackHandler;
    notifyHandlers([named, { handleLLMEnd: fail }], "handleLLMEnd", { generations: [] }, "run");
    expect(warn.mock.calls).toEqual([
      ["Error in handler Object, handleLLMEnd: Error: boom"],
      ["Error in handler Handler, handleLLMEnd: Error: boom"],
    ]);
  });
});

describe("notifyHandlers: LangChain.js's ignore flags", () => {
  it("ignoreLLM, ignoreChain and ignoreAgent keep a handler from hearing model, chain and tool calls", () => {
    const heard: string[] = [];
    const all = (flag: string): CallbackHandler => ({
      [flag]: true,
      handleChatModelStart: () => heard.push(`${flag} model`),
      handleLLMEnd: () => heard.push(`${flag} llm end`),
      handleChainStart: () => heard.push(`${flag} chain`),
      handleToolStart: () => heard.push(`${flag} tool`),
      handleToolEvent: () => heard.push(`${flag} tool event`),
      handleCustomEvent: () => heard.push(`${flag} custom`),
    });
    const handlers = [all("ignoreLLM"), all("ignoreChain"), all("ignoreAgent")];
    notifyHandlers(handlers, "handleChatModelStart", { id: ["m"] }, [[]], "run");
    notifyHandlers(handlers, "handleLLMEnd", { generations: [] }, "run");
    notifyHandlers(handlers, "handleChainStart", { lc: 1, type: "not_implemented", id: ["g"] }, {}, "run");
    notifyHandlers(handlers, "handleToolStart", { lc: 1, type: "not_implemented", id: ["t"] }, "{}", "run");
    notifyHandlers(handlers, "handleToolEvent", 1, "run");
    // custom events are not filtered (LangChain.js's run managers do not check ignoreCustomEvent)
    notifyHandlers(handlers, "handleCustomEvent", "e", {}, "run");
    expect(heard).toEqual([
      "ignoreChain model",
      "ignoreAgent model",
      "ignoreChain llm end",
      "ignoreAgent llm end",
      "ignoreLLM chain",
      "ignoreAgent chain",
      "ignoreLLM tool",
      "ignoreChain tool",
      "ignoreLLM tool event",
      "ignoreChain tool event",
      "ignoreLLM custom",
      "ignoreChain custom",
      "ignoreAgent custom",
    ]);
  });
});

describe("notifyRaising: handlers with raiseError and awaitHandlers fail the call (LangChain.js's callback manager)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it("calls every handler, then rejects with the first opted-in handler's error; nothing to wait for otherwise", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const heard: string[] = [];
    const fail = (text: string) => () => {
      heard.push(text);
      throw new Error(text);
    };
    const handlers: CallbackHandler[] = [
      { raiseError: true, awaitHandlers: true, handleToolEnd: fail("first") },
      { handleToolEnd: fail("quiet") },
      { raiseError: true, handleToolEnd: fail("background") },
      { raiseError: true, awaitHandlers: true, handleToolEnd: async () => fail("async")() },
    ];
    const raised = notifyRaising(handlers, "handleToolEnd", "out", "run");
    await expect(raised).rejects.toThrow("first");
    expect(heard).toEqual(["first", "quiet", "background", "async"]);
    expect(error).toHaveBeenCalledTimes(3);
    // only handlers that opt in with both flags are waited for
    expect(notifyRaising(handlers.slice(1, 3), "handleToolEnd", "out", "run")).toBeUndefined();
    // where the call cannot fail, they are logged only
    expect(notifyHandlers(handlers, "handleToolEnd", "out", "run")).toBeUndefined();
  });

  it("waits for a plain object without a name when LANGCHAIN_CALLBACKS_BACKGROUND is false (LangChain.js wraps it)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const plain: CallbackHandler = {
      raiseError: true,
      handleToolEnd: () => {
        throw new Error("wrapped");
      },
    };
    const named: CallbackHandler = { ...plain, name: "named" };
    expect(notifyRaising([plain], "handleToolEnd", "out", "run")).toBeUndefined();
    vi.stubEnv("LANGCHAIN_CALLBACKS_BACKGROUND", "false");
    await expect(notifyRaising([plain], "handleToolEnd", "out", "run")).rejects.toThrow("wrapped");
    expect(notifyRaising([named], "handleToolEnd", "out", "run")).toBeUndefined();
  });
});
