import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command, MemorySaver } from "../index.js";
import { AIMessage, type BaseMessage, SystemMessage, ToolMessage } from "../messages/index.js";
import { FakeChatModel } from "../testing/index.js";
import { tool } from "../tools/index.js";
import {
  answer,
  asking,
  call,
  jumpToModelOnce,
  outline,
  question,
  RecordingModel,
  search,
} from "./agent.test-helpers.js";
import {
  createAgent,
  createMiddleware,
  MiddlewareError,
  type ModelRequest,
  ToolInvocationError,
} from "./index.js";

describe("middleware: hook order", () => {
  it("runs before-hooks in order and after-hooks in reverse, once per agent or per model call", async () => {
    const log: string[] = [];
    const hooks = (name: string) =>
      createMiddleware({
        name,
        beforeAgent: () => {
          log.push(`${name}.beforeAgent`);
        },
        beforeModel: () => {
          log.push(`${name}.beforeModel`);
        },
        afterModel: () => {
          log.push(`${name}.afterModel`);
        },
        afterAgent: () => {
          log.push(`${name}.afterAgent`);
        },
      });
    const model = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "ok")],
    });
    await createAgent({ model, tools: [search], middleware: [hooks("A"), hooks("B")] }).invoke(question());
    expect(log).toEqual([
      "A.beforeAgent",
      "B.beforeAgent",
      "A.beforeModel",
      "B.beforeModel",
      "B.afterModel",
      "A.afterModel",
      "A.beforeModel",
      "B.beforeModel",
      "B.afterModel",
      "A.afterModel",
      "B.afterAgent",
      "A.afterAgent",
    ]);
  });

  it("gives the model messages on a long history, also when wrapModelCall swaps in plain objects", async () => {
    const history = Array.from({ length: 20 }, (_, i) => ({ role: "user", content: `m${i}`, id: `m${i}` }));
    const plain = createMiddleware({
      name: "Plain",
      wrapModelCall: (request, handler) =>
        handler({ ...request, messages: [...request.messages, { role: "user", content: "extra" }] as never }),
    });
    for (const middleware of [[], [plain]]) {
      const model = new FakeChatModel({ responses: ["ok"] });
      // the input is merged into the thread's (indexed) history before the model reads it
      await createAgent({ model, middleware }).invoke({ messages: history });
      const seen = model.calls[0] ?? [];
      expect(seen.length).toBe(middleware.length === 0 ? 20 : 21);
      expect(seen.every((m) => typeof (m as BaseMessage).getType === "function")).toBe(true);
    }
  });

  it("applies hook updates (messages through the reducer) and Commands", async () => {
    const m = createMiddleware({
      name: "Inject",
      beforeModel: () => ({ messages: [{ role: "user", content: "(be brief)" }] }),
      afterAgent: () => new Command({ update: { messages: [new AIMessage({ id: "z", content: "bye" })] } }),
    });
    const model = new FakeChatModel({ responses: ["ok"] });
    const { messages } = await createAgent({ model, middleware: [m] }).invoke(question());
    expect(outline(messages)).toEqual(["human:hi", "human:(be brief)", "ai:ok", "ai:bye"]);
    expect(outline(model.calls[0] ?? [])).toEqual(["human:hi", "human:(be brief)"]);
  });

  it("gives hooks a runtime with the context narrowed by the middleware's contextSchema", async () => {
    const seen: unknown[] = [];
    const m = createMiddleware({
      name: "Ctx",
      contextSchema: z.object({ userId: z.string(), tier: z.string().default("free") }),
      beforeModel: (_state, runtime) => {
        seen.push(runtime.context);
        expect(Object.isFrozen(runtime)).toBe(true);
      },
    });
    await createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] }).invoke(
      question(),
      {
        context: { userId: "u1", other: 1 },
      } as never,
    );
    expect(seen).toEqual([{ userId: "u1", tier: "free" }]);
  });

  it("fails a context its contextSchema rejects with the schema's own ZodError, as LangChain.js", async () => {
    const schema = z.object({ level: z.number().default(3) });
    const m = createMiddleware({ name: "Ctx", contextSchema: schema, beforeModel: () => undefined });
    const failure = await createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] })
      .invoke(question(), { context: { level: "high" } } as never)
      .catch((error: unknown) => error);
    const expected = schema.safeParse({ level: "high" }).error;
    expect(failure).toBeInstanceOf(z.ZodError);
    expect((failure as Error).message).toBe(expected?.message);
  });
});

describe("middleware: jumpTo", () => {
  it("jumps to the end from beforeModel (after_agent hooks still run)", async () => {
    const log: string[] = [];
    const gate = createMiddleware({
      name: "Gate",
      beforeModel: { canJumpTo: ["end"], hook: () => ({ jumpTo: "end" as const }) },
      afterAgent: () => {
        log.push("afterAgent");
      },
    });
    const model = new FakeChatModel({ responses: [] });
    const { messages } = await createAgent({ model, middleware: [gate] }).invoke(question());
    expect(model.calls).toHaveLength(0);
    expect(outline(messages)).toEqual(["human:hi"]);
    expect(log).toEqual(["afterAgent"]);
  });

  it("jumps back to the model from afterModel", async () => {
    const again = jumpToModelOnce("afterModel", "Again");
    const model = new FakeChatModel({ responses: ["first", "second"] });
    const { messages } = await createAgent({ model, middleware: [again] }).invoke(question());
    expect(outline(messages)).toEqual(["human:hi", "ai:first", "ai:second"]);
  });

  it("streams model_request after a jump from afterModel as { messages } only, as LangChain.js does", async () => {
    const again = jumpToModelOnce("afterModel", "Again");
    const model = new FakeChatModel({ responses: ["first", "second"] });
    const updates: Array<[string, string[]]> = [];
    for await (const chunk of await createAgent({ model, middleware: [again] }).stream(question())) {
      for (const [node, update] of Object.entries(chunk as Record<string, object>))
        updates.push([node, Object.keys(update)]);
    }
    expect(updates.filter(([node]) => node === "model_request")).toEqual([
      ["model_request", ["messages"]],
      ["model_request", ["messages"]],
    ]);
  });

  it("clears a jump to the model from beforeModel in model_request when no afterModel hook follows", async () => {
    const once = jumpToModelOnce();
    const model = new FakeChatModel({ responses: ["only"] });
    const { messages } = await createAgent({ model, middleware: [once] }).invoke(question());
    expect(outline(messages)).toEqual(["human:hi", "ai:only"]);
  });

  it("jumps to the tools from beforeAgent (all pending calls of the last AI message run)", async () => {
    const m = createMiddleware({
      name: "Replay",
      beforeAgent: { canJumpTo: ["tools"], hook: () => ({ jumpTo: "tools" as const }) },
    });
    const model = new FakeChatModel({ responses: ["after tools"] });
    const { messages } = await createAgent({ model, tools: [search], middleware: [m] }).invoke({
      messages: [asking("a0", call("search", { query: "x" }, "c0"), call("search", { query: "y" }, "c1"))],
    });
    expect(outline(messages)).toEqual(["ai:", "tool:results for x", "tool:results for y", "ai:after tools"]);
  });

  it("jumps to the end from beforeAgent", async () => {
    const m = createMiddleware({
      name: "Stop",
      beforeAgent: { canJumpTo: ["end"], hook: () => ({ jumpTo: "end" as const }) },
    });
    const model = new FakeChatModel({ responses: [] });
    await createAgent({ model, middleware: [m] }).invoke(question());
    expect(model.calls).toHaveLength(0);
  });

  it("rejects a jump the hook did not declare", async () => {
    const bad = createMiddleware({ name: "Bad", beforeModel: () => ({ jumpTo: "end" as const }) });
    await expect(
      createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [bad] }).invoke(question()),
    ).rejects.toThrow("Invalid jump target: end, no beforeModel.canJumpTo defined in middleware Bad.");
    const narrow = createMiddleware({
      name: "Narrow",
      afterModel: { canJumpTo: ["model"], hook: () => ({ jumpTo: "end" as const }) },
    });
    await expect(
      createAgent({ model: new FakeChatModel({ responses: ["x"] }), middleware: [narrow] }).invoke(
        question(),
      ),
    ).rejects.toThrow("Invalid jump target: end, must be one of: model.");
  });

  it("rejects unknown targets in canJumpTo when the agent is built, with a plain Error", () => {
    // LangChain.js accepts the middleware and fails in createAgent
    const bad = createMiddleware({
      name: "X",
      beforeModel: { canJumpTo: ["elsewhere" as never], hook: () => undefined },
    });
    let failure: unknown;
    try {
      createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [bad] });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).constructor).toBe(Error);
    expect((failure as Error).message).toBe(
      'Invalid jump target: elsewhere, must be "model", "tools" or "end".',
    );
  });

  it("accepts the node names __end__ and model_request as jump targets, as LangChain.js does", async () => {
    const runs: string[][] = [];
    for (const target of ["__end__", "model_request"]) {
      let jumped = false;
      const m = createMiddleware({
        name: "J",
        beforeAgent: {
          canJumpTo: [target as never],
          hook: () => {
            if (jumped) return undefined;
            jumped = true;
            return { jumpTo: target as never };
          },
        },
      });
      const agent = createAgent({
        model: new FakeChatModel({ responses: ["hi"] }),
        tools: [search],
        middleware: [m],
      });
      const nodes: string[] = [];
      for await (const chunk of await agent.stream(question())) nodes.push(...Object.keys(chunk));
      runs.push(nodes);
    }
    expect(runs).toEqual([["J.before_agent"], ["J.before_agent", "model_request"]]);
  });

  it("fails an undeclared jump with a plain Error, as LangChain.js does", async () => {
    const bad = createMiddleware({ name: "Bad", beforeModel: () => ({ jumpTo: "end" as const }) });
    const failure = await createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [bad] })
      .invoke(question())
      .catch((error: unknown) => error);
    expect((failure as Error).constructor).toBe(Error);
  });

  it("draws no tools edge for a jump to tools in an agent without tools, and fails that jump", async () => {
    const m = createMiddleware({
      name: "D",
      beforeModel: { canJumpTo: ["tools"], hook: () => ({ jumpTo: "tools" as const }) },
    });
    const agent = createAgent({ model: new FakeChatModel({ responses: ["x"] }), middleware: [m] });
    const edges = agent.graph
      .getGraph()
      .edges.filter((e) => e.source === "D.before_model")
      .map((e) => e.target);
    expect(edges).toEqual(["model_request"]);
    await expect(agent.invoke(question())).rejects.toThrow(
      "Branch condition returned unknown or null destination",
    );
  });

  it("does not let a jump leak into the next node's routing", async () => {
    // A jumps to the model, skipping B; the model's own routing must not see A's jumpTo again
    const a = createMiddleware({
      name: "A",
      beforeModel: { canJumpTo: ["model"], hook: () => ({ jumpTo: "model" as const }) },
    });
    const b = createMiddleware({ name: "B", beforeModel: () => undefined });
    const model = new FakeChatModel({ responses: ["only once"] });
    const { messages } = await createAgent({ model, middleware: [a, b] }).invoke(question());
    expect(outline(messages)).toEqual(["human:hi", "ai:only once"]);
  });
});

describe("middleware: names and errors", () => {
  it("rejects duplicate middleware names", () => {
    const m = createMiddleware({ name: "Twice", beforeModel: () => undefined });
    expect(() => createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [m, m] })).toThrow(
      "Middleware Twice is defined multiple times",
    );
  });

  it("rethrows a node hook's error unchanged (as LangChain.js), its stack naming the middleware", async () => {
    const thrown = new TypeError("bad state");
    const m = createMiddleware({
      name: "Boom",
      beforeModel: () => {
        throw thrown;
      },
    });
    const error = await createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [m] })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(error).toBe(thrown);
    expect((error as Error).message).toBe("bad state");
    expect((error as Error).stack).toContain('in middleware "Boom" (beforeModel)');
  });

  it("wraps a thrown non-error of a node hook in a MiddlewareError naming the middleware", async () => {
    const m = createMiddleware({
      name: "boom",
      afterModel: () => {
        throw "plain text";
      },
    });
    const error = await createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [m] })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as MiddlewareError).message).toBe("plain text");
    expect((error as MiddlewareError).name).toBe("BoomError");
    expect([(error as MiddlewareError).middlewareName, (error as MiddlewareError).hook]).toEqual([
      "boom",
      "afterModel",
    ]);
  });

  it("wraps a failing wrapModelCall's error in a MiddlewareError (as LangChain.js), named by the middleware", async () => {
    const thrown = new RangeError("nope");
    const m = createMiddleware({
      name: "Wrapper",
      wrapModelCall: () => {
        throw thrown;
      },
    });
    const error = await createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [m] })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error).message).toBe("nope");
    expect((error as Error).name).toBe("RangeError");
    expect((error as Error).cause).toBe(thrown);
    expect((error as MiddlewareError).middlewareName).toBe("Wrapper");
    expect((error as MiddlewareError).hook).toBe("wrapModelCall");
    expect((error as Error).stack).toContain('in middleware "Wrapper" (wrapModelCall)');
  });

  it("rejects a wrapModelCall result that is neither an AIMessage nor a Command", async () => {
    const m = createMiddleware({ name: "Odd", wrapModelCall: async () => "text" as never });
    await expect(
      createAgent({ model: new FakeChatModel({ responses: [] }), middleware: [m] }).invoke(question()),
    ).rejects.toThrow(
      'Invalid response from "wrapModelCall" in middleware "Odd": expected AIMessage or Command, got string',
    );
  });
});

describe("middleware: wrapModelCall onion", () => {
  it("wraps with the first middleware outermost", async () => {
    const log: string[] = [];
    const layer = (name: string) =>
      createMiddleware({
        name,
        wrapModelCall: async (request, handler) => {
          log.push(`${name} in`);
          const response = await handler(request);
          log.push(`${name} out`);
          return response;
        },
      });
    await createAgent({
      model: new FakeChatModel({ responses: ["ok"] }),
      middleware: [layer("A"), layer("B")],
    }).invoke(question());
    expect(log).toEqual(["A in", "B in", "B out", "A out"]);
  });

  it("may answer without calling the handler", async () => {
    const model = new FakeChatModel({ responses: [] });
    const cache = createMiddleware({
      name: "Cache",
      wrapModelCall: () => new AIMessage({ id: "cached", content: "from cache" }),
    });
    const { messages } = await createAgent({ model, middleware: [cache] }).invoke(question());
    expect(model.calls).toHaveLength(0);
    expect(outline(messages)).toEqual(["human:hi", "ai:from cache"]);
  });

  it("may call the handler several times in sequence (retries)", async () => {
    const model = new FakeChatModel({ responses: ["too short", "long enough answer"] });
    const retry = createMiddleware({
      name: "Retry",
      wrapModelCall: async (request, handler) => {
        let response = await handler(request);
        while (response.text.length < 10) response = await handler(request);
        return response;
      },
    });
    const { messages } = await createAgent({ model, middleware: [retry] }).invoke(question());
    expect(model.calls).toHaveLength(2);
    expect(outline(messages)).toEqual(["human:hi", "ai:long enough answer"]);
  });

  it("refuses concurrent calls of the same handler", async () => {
    const model = new FakeChatModel({ responses: ["a", "b"] });
    const race = createMiddleware({
      name: "Race",
      wrapModelCall: async (request, handler) => {
        const [first] = await Promise.all([handler(request), handler(request)]);
        return first;
      },
    });
    await expect(createAgent({ model, middleware: [race] }).invoke(question())).rejects.toThrow(
      'Middleware "Race" called the model handler again before its previous call finished.',
    );
  });

  it("lets a request override the model, messages, system message, tools, tool choice and settings", async () => {
    const small = new RecordingModel([]);
    const big = new RecordingModel(["from big"]);
    const requests: ModelRequest[] = [];
    const m = createMiddleware({
      name: "Route",
      wrapModelCall: (request, handler) => {
        requests.push(request);
        return handler({
          ...request,
          model: big,
          messages: request.messages.slice(-1),
          systemMessage: new SystemMessage("Changed."),
          tools: request.tools.filter((t) => (t as { name?: string }).name === "search"),
          toolChoice: "auto",
          modelSettings: { temperature: 0 },
        });
      },
    });
    const other = tool(async () => "x", { name: "other", description: "Other.", schema: z.object({}) });
    await createAgent({
      model: small,
      tools: [search, other],
      systemPrompt: "Original.",
      middleware: [m],
    }).invoke({
      messages: [
        { role: "user", content: "old" },
        { role: "user", content: "new" },
      ],
    });
    expect(small.calls).toHaveLength(0);
    expect(outline(big.calls[0] ?? [])).toEqual(["system:Changed.", "human:new"]);
    expect(big.options[0]).toMatchObject({ tools: ["search"], toolChoice: "auto" });
    expect(big.options[0]?.options.temperature).toBe(0);
    expect(requests[0]?.systemPrompt).toBe("Original.");
    expect(requests[0]?.toolChoice).toBeUndefined();
    expect(requests[0]?.state.messages).toHaveLength(2);
    expect(requests[0]?.tools.map((t) => (t as { name: string }).name)).toEqual(["search", "other"]);
  });

  it("turns a changed systemPrompt into the system message, and refuses changing both", async () => {
    const model = new FakeChatModel({ responses: ["ok"] });
    const prompt = createMiddleware({
      name: "Prompt",
      wrapModelCall: (request, handler) =>
        handler({ ...request, systemPrompt: `${request.systemPrompt} Be brief.` }),
    });
    await createAgent({ model, systemPrompt: "Hi.", middleware: [prompt] }).invoke(question());
    expect(model.calls[0]?.[0]?.content).toEqual([{ type: "text", text: "Hi. Be brief." }]);
    const both = createMiddleware({
      name: "Both",
      wrapModelCall: (request, handler) =>
        handler({ ...request, systemPrompt: "a", systemMessage: new SystemMessage("b") }),
    });
    await expect(
      createAgent({ model: new FakeChatModel({ responses: ["ok"] }), middleware: [both] }).invoke(question()),
    ).rejects.toThrow("Cannot change both systemPrompt and systemMessage in the same request.");
  });

  it("applies a Command returned by wrapModelCall after the model's message", async () => {
    const counter = createMiddleware({
      name: "Count",
      stateSchema: z.object({ calls: z.number().default(0) }),
      wrapModelCall: async (request, handler) => {
        await handler(request);
        return new Command({
          update: {
            calls: request.state.calls + 1,
            messages: [new AIMessage({ id: "note", content: "noted" })],
          },
        });
      },
    });
    const result = await createAgent({
      model: new FakeChatModel({ responses: ["answer"] }),
      middleware: [counter],
    }).invoke(question());
    expect(result.calls).toBe(1);
    expect(outline(result.messages)).toEqual(["human:hi", "ai:answer", "ai:noted"]);
  });

  it("drops Commands of an inner middleware from attempts an outer retry discarded", async () => {
    let n = 0;
    const inner = createMiddleware({
      name: "Inner",
      stateSchema: z.object({ attempts: z.array(z.number()).default([]) }),
      wrapModelCall: async (request, handler) => {
        await handler(request);
        n += 1;
        return new Command({ update: { attempts: [n] } });
      },
    });
    const outer = createMiddleware({
      name: "Outer",
      wrapModelCall: async (request, handler) => {
        await handler(request);
        return handler(request);
      },
    });
    const result = await createAgent({
      model: new FakeChatModel({ responses: ["one", "two"] }),
      middleware: [outer, inner],
    }).invoke(question());
    expect(result.attempts).toEqual([2]);
    expect(outline(result.messages)).toEqual(["human:hi", "ai:two"]);
  });

  it("rejects a tool added in wrapModelCall unless some middleware has wrapToolCall", async () => {
    const extra = tool(async () => "extra!", { name: "extra", description: "Extra.", schema: z.object({}) });
    const adder = createMiddleware({
      name: "Adder",
      wrapModelCall: (request, handler) => handler({ ...request, tools: [...request.tools, extra] }),
    });
    await expect(
      createAgent({
        model: new FakeChatModel({ responses: ["ok"] }),
        tools: [search],
        middleware: [adder],
      }).invoke(question()),
    ).rejects.toThrow(
      'You have added a new tool in "wrapModelCall" hook of middleware "Adder": extra. This is not supported unless a middleware provides a "wrapToolCall" handler to execute it.',
    );
    const runner = createMiddleware({
      name: "Runner",
      wrapToolCall: (request, handler) =>
        handler(request.toolCall.name === "extra" ? { ...request, tool: extra } : request),
    });
    const model = new RecordingModel([asking("a1", call("extra", {}, "c1")), answer("a2", "done")]);
    const { messages } = await createAgent({ model, tools: [search], middleware: [adder, runner] }).invoke(
      question(),
    );
    expect(model.options[0]?.tools).toEqual(["search", "extra"]);
    expect(outline(messages)).toEqual(["human:hi", "ai:", "tool:extra!", "ai:done"]);
  });

  it("rejects swapping a registered tool for another instance", async () => {
    const fake = tool(async () => "fake", {
      name: "search",
      description: "Not the real one.",
      schema: z.object({}),
    });
    const swap = createMiddleware({
      name: "Swap",
      wrapModelCall: (request, handler) => handler({ ...request, tools: [fake] }),
    });
    await expect(
      createAgent({
        model: new FakeChatModel({ responses: ["ok"] }),
        tools: [search],
        middleware: [swap],
      }).invoke(question()),
    ).rejects.toThrow(
      'You have modified a tool in "wrapModelCall" hook of middleware "Swap": search. This is not supported.',
    );
  });
});

describe("middleware: wrapToolCall", () => {
  it("wraps each tool call, first middleware outermost, and may short-circuit or retry", async () => {
    const log: string[] = [];
    const outer = createMiddleware({
      name: "Outer",
      wrapToolCall: async (request, handler) => {
        log.push(`outer ${request.toolCall.id}`);
        return handler(request);
      },
    });
    const inner = createMiddleware({
      name: "Inner",
      wrapToolCall: async (request, handler) => {
        log.push(`inner ${request.toolCall.id}`);
        if (request.toolCall.args.query === "cached") {
          return new ToolMessage({ content: "from cache", tool_call_id: request.toolCall.id ?? "" });
        }
        await handler(request);
        return handler(request);
      },
    });
    const model = new FakeChatModel({
      responses: [
        asking("a1", call("search", { query: "cached" }, "c1"), call("search", { query: "live" }, "c2")),
        answer("a2", "ok"),
      ],
    });
    const { messages } = await createAgent({ model, tools: [search], middleware: [outer, inner] }).invoke(
      question(),
    );
    expect(outline(messages)).toEqual([
      "human:hi",
      "ai:",
      "tool:from cache",
      "tool:results for live",
      "ai:ok",
    ]);
    expect(log.filter((l) => l.endsWith("c1"))).toEqual(["outer c1", "inner c1"]);
  });

  it("lets a middleware error propagate (named) instead of becoming a tool message", async () => {
    const m = createMiddleware({
      name: "Strict",
      wrapToolCall: () => {
        throw new Error("denied");
      },
    });
    const model = new FakeChatModel({ responses: [asking("a1", call("search", { query: "q" }, "c1"))] });
    const error = await createAgent({ model, tools: [search], middleware: [m] })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect([(error as Error).message, (error as MiddlewareError).middlewareName]).toEqual([
      "denied",
      "Strict",
    ]);
  });

  it("lets the tool's own errors fail the run, as LangChain.js does", async () => {
    const broken = tool(
      async () => {
        throw new Error("tool broke");
      },
      { name: "broken", description: "Fails.", schema: z.object({}) },
    );
    const pass = createMiddleware({ name: "Pass", wrapToolCall: (request, handler) => handler(request) });
    const model = new FakeChatModel({
      responses: [asking("a1", call("broken", {}, "c1")), answer("a2", "ok")],
    });
    const agent = createAgent({ model, tools: [broken], middleware: [pass] });
    await expect(agent.invoke(question())).rejects.toThrow(/^tool broke$/);
  });

  it("still reports bad arguments and unknown tools to the model under wrapToolCall", async () => {
    const seen: unknown[] = [];
    const pass = createMiddleware({
      name: "Pass",
      wrapToolCall: async (request, handler) => {
        try {
          const result = await handler(request);
          seen.push((result as ToolMessage).content);
          return result;
        } catch (error) {
          seen.push(error instanceof ToolInvocationError);
          throw error;
        }
      },
    });
    const model = new FakeChatModel({
      responses: [
        asking("a1", call("search", { query: 1 }, "c1"), call("nope", {}, "c2")),
        answer("a2", "ok"),
      ],
    });
    const { messages } = await createAgent({ model, tools: [search], middleware: [pass] }).invoke(question());
    expect(String(messages[2]?.content)).toMatch(
      /^Error invoking tool 'search' with kwargs \{"query":1\} with error: Error: Received tool input did not match expected schema/,
    );
    expect(String(messages[2]?.content)).toMatch(/\n Please fix the error and try again\.$/);
    expect(messages[3]).toMatchObject({
      content: "Error: nope is not a valid tool, try one of [search].",
      status: "error",
      name: "nope",
    });
    // (the calls run in parallel: either may finish first)
    expect(seen).toHaveLength(2);
    expect(seen).toContain(true);
    expect(seen).toContain("Error: nope is not a valid tool, try one of [search].");
  });

  it("gives the hook the agent state read from the channels", async () => {
    const seen: number[] = [];
    const m = createMiddleware({
      name: "Peek",
      wrapToolCall: (request, handler) => {
        seen.push((request.state.messages as BaseMessage[]).length);
        return handler(request);
      },
    });
    const model = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "ok")],
    });
    await createAgent({ model, tools: [search], middleware: [m], checkpointer: new MemorySaver() }).invoke(
      question(),
      {
        configurable: { thread_id: "peek" },
      },
    );
    expect(seen).toEqual([2]);
  });
});

describe("middleware: more", () => {
  it("applies Zod defaults of private fields in hooks", async () => {
    const seen: unknown[] = [];
    const m = createMiddleware({
      name: "Private",
      stateSchema: z.object({ _budget: z.number().default(3) }),
      beforeModel: (state) => {
        seen.push(state._budget);
        return { _budget: state._budget - 1 };
      },
    });
    const model = new FakeChatModel({
      responses: [asking("a1", call("search", { query: "q" }, "c1")), answer("a2", "ok")],
    });
    const result = await createAgent({ model, tools: [search], middleware: [m] }).invoke(question());
    expect(seen).toEqual([3, 2]);
    expect("_budget" in result).toBe(false);
  });

  it("lets interrupt() in a hook pause the run (not wrapped as a middleware error)", async () => {
    const { interrupt } = await import("../index.js");
    const review = createMiddleware({
      name: "Review",
      afterModel: (state) => {
        const verdict = interrupt({ last: state.messages.at(-1)?.text });
        return { messages: [new AIMessage({ id: "verdict", content: `verdict: ${String(verdict)}` })] };
      },
    });
    const agent = createAgent({
      model: new FakeChatModel({ responses: ["draft"] }),
      middleware: [review],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "review" } };
    const paused = (await agent.invoke(question(), config)) as { __interrupt__?: Array<{ value: unknown }> };
    expect(paused.__interrupt__?.[0]?.value).toEqual({ last: "draft" });
    const done = await agent.invoke(new Command({ resume: "ok" }), config);
    expect(outline(done.messages)).toEqual(["human:hi", "ai:draft", "ai:verdict: ok"]);
  });

  it("streams model_request once when wrapModelCall returns a Command", async () => {
    const m = createMiddleware({
      name: "Cmd",
      wrapModelCall: async (request, handler) => {
        await handler(request);
        return new Command({ update: { messages: [new AIMessage({ id: "extra", content: "extra" })] } });
      },
    });
    const names: string[] = [];
    for await (const chunk of await createAgent({
      model: new FakeChatModel({ responses: ["x"] }),
      middleware: [m],
    }).stream(question())) {
      names.push(...Object.keys(chunk as object));
    }
    expect(names.every((n) => n === "model_request")).toBe(true);
  });

  it("shows the agent's name inline to the model with includeAgentName", async () => {
    const model = new FakeChatModel({ responses: ["second"] });
    await createAgent({ model, name: "bot", includeAgentName: "inline" }).invoke({
      messages: [
        { role: "user", content: "hi" },
        new AIMessage({ id: "p", content: "first", name: "bot" }),
        { role: "user", content: "again" },
      ],
    });
    expect(outline(model.calls[0] ?? [])[1]).toBe("ai:<name>bot</name><content>first</content>");
  });

  it("takes the inline name markup off an answer made of content blocks", async () => {
    const answer = new AIMessage({
      content: [
        { type: "text", text: "<name>other</name><content>Here it is</content>" },
        { type: "text", text: "<name>other</name><content></content>" },
        { type: "image_url", image_url: { url: "https://example.com/chart.png" } },
      ],
    });
    const seen: unknown[] = [];
    const spy = createMiddleware({
      name: "Spy",
      wrapModelCall: async (request, handler) => {
        const result = await handler(request);
        seen.push((result as AIMessage).name);
        return result;
      },
    });
    const model = new FakeChatModel({ responses: [answer] });
    const { messages } = await createAgent({
      model,
      name: "bot",
      includeAgentName: "inline",
      middleware: [spy],
    }).invoke({
      messages: [{ role: "user", content: "chart?" }],
    });
    // the block with its text keeps what <content> held, the one left empty is dropped; the
    // middleware sees the name the markup gave, the state the agent's
    expect(messages.at(-1)?.content).toEqual([
      { type: "text", text: "Here it is" },
      { type: "image_url", image_url: { url: "https://example.com/chart.png" } },
    ]);
    expect(seen).toEqual(["other"]);
    expect(messages.at(-1)?.name).toBe("bot");
  });
});

describe("middleware: errors from below", () => {
  it("wraps the model's errors leaving a wrapModelCall, keeping the original as cause", async () => {
    const pass = createMiddleware({ name: "Pass", wrapModelCall: (request, handler) => handler(request) });
    const model = new FakeChatModel({ responses: [] });
    const error = await createAgent({ model, middleware: [pass] })
      .invoke(question())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error).name).toBe("FakeChatModelExhaustedError");
    expect(((error as Error).cause as Error).name).toBe("FakeChatModelExhaustedError");
  });

  it("names the inner middleware when it fails under an outer one", async () => {
    const outer = createMiddleware({ name: "Outer", wrapModelCall: (request, handler) => handler(request) });
    const inner = createMiddleware({
      name: "Inner",
      wrapModelCall: () => {
        throw new Error("inner broke");
      },
    });
    const error = await createAgent({
      model: new FakeChatModel({ responses: [] }),
      middleware: [outer, inner],
    })
      .invoke(question())
      .catch((e: unknown) => e);
    expect((error as MiddlewareError).middlewareName).toBe("Inner");
  });
});
