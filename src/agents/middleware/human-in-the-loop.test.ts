import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command, MemorySaver } from "../../index.js";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "../../messages/index.js";
import { FakeChatModel } from "../../testing/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import type { AgentMiddleware } from "../types.js";
import {
  type HITLRequest,
  type HumanInTheLoopMiddlewareConfig,
  humanInTheLoopMiddleware,
} from "./human-in-the-loop.js";

const runs: string[] = [];
const writeFile = tool(
  async ({ path }: { path: string }) => {
    runs.push(`write:${path}`);
    return `wrote ${path}`;
  },
  { name: "write_file", description: "Write a file.", schema: z.object({ path: z.string() }) },
);
const readFile = tool(
  async ({ path }: { path: string }) => {
    runs.push(`read:${path}`);
    return `read ${path}`;
  },
  { name: "read_file", description: "Read a file.", schema: z.object({ path: z.string() }) },
);

const threeCalls = () =>
  new AIMessage({
    id: "ai-1",
    content: "",
    tool_calls: [
      { name: "write_file", args: { path: "a" }, id: "c1", type: "tool_call" },
      { name: "read_file", args: { path: "b" }, id: "c2", type: "tool_call" },
      { name: "write_file", args: { path: "c" }, id: "c3", type: "tool_call" },
    ],
  });

function setup(
  options: HumanInTheLoopMiddlewareConfig,
  responses: AIMessage[] = [threeCalls(), new AIMessage("done")],
) {
  runs.length = 0;
  const model = new FakeChatModel({ responses });
  const agent = createAgent({
    model,
    tools: [writeFile, readFile],
    checkpointer: new MemorySaver(),
    middleware: [humanInTheLoopMiddleware(options)],
  });
  const config = { configurable: { thread_id: `t-${Math.random()}` } };
  return { model, agent, config };
}

function summary(messages: readonly BaseMessage[]) {
  return messages.map((m) => {
    if (m instanceof ToolMessage) return `tool(${m.tool_call_id},${m.status}):${m.text}`;
    if (m instanceof AIMessage && m.tool_calls.length > 0)
      return `ai:${m.tool_calls.map((c) => `${c.id}=${c.name}${JSON.stringify(c.args)}`).join(",")}`;
    return `${m.getType()}:${m.text}`;
  });
}

// AgentOutput does not declare `__interrupt__` yet (see the report to the core): read it untyped
const interruptsOf = (result: object) =>
  (result as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__;
const interruptValue = (result: object) =>
  (result as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__?.[0]?.value as HITLRequest;

describe("humanInTheLoopMiddleware", () => {
  it("raises one batched interrupt with the reference payload", async () => {
    const { agent, config } = setup({ interruptOn: { write_file: true, read_file: false } });
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(interruptsOf(paused)).toHaveLength(1);
    expect(interruptValue(paused)).toEqual({
      actionRequests: [
        {
          name: "write_file",
          args: { path: "a" },
          description: 'Tool execution requires approval\n\nTool: write_file\nArgs: {\n  "path": "a"\n}',
        },
        {
          name: "write_file",
          args: { path: "c" },
          description: 'Tool execution requires approval\n\nTool: write_file\nArgs: {\n  "path": "c"\n}',
        },
      ],
      reviewConfigs: [
        { actionName: "write_file", allowedDecisions: ["approve", "edit", "reject"] },
        { actionName: "write_file", allowedDecisions: ["approve", "edit", "reject"] },
      ],
    });
    expect(runs).toEqual([]);
  });

  it("approve: runs every call (auto-approved ones first) and continues", async () => {
    const { agent, config, model } = setup({ interruptOn: { write_file: true, read_file: false } });
    await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const done = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "approve" }, { type: "approve" }] } }),
      config,
    );
    expect(summary(done.messages)).toEqual([
      "human:go",
      'ai:c2=read_file{"path":"b"},c1=write_file{"path":"a"},c3=write_file{"path":"c"}',
      "tool(c2,success):read b",
      "tool(c1,success):wrote a",
      "tool(c3,success):wrote c",
      "ai:done",
    ]);
    expect(runs.sort()).toEqual(["read:b", "write:a", "write:c"]);
    expect(model.calls).toHaveLength(2);
  });

  it("edit: runs the edited action under the original call id", async () => {
    const { agent, config } = setup({ interruptOn: { write_file: true } });
    await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const done = await agent.invoke(
      new Command({
        resume: {
          decisions: [
            { type: "edit", editedAction: { name: "write_file", args: { path: "z" } } },
            { type: "approve" },
          ],
        },
      }),
      config,
    );
    expect(summary(done.messages)).toEqual([
      "human:go",
      'ai:c2=read_file{"path":"b"},c1=write_file{"path":"z"},c3=write_file{"path":"c"}',
      "tool(c2,success):read b",
      "tool(c1,success):wrote z",
      "tool(c3,success):wrote c",
      "ai:done",
    ]);
    expect(runs.sort()).toEqual(["read:b", "write:c", "write:z"]);
  });

  it("edit may rename the call to another tool", async () => {
    const { agent, config } = setup({ interruptOn: { write_file: true, read_file: true } }, [
      new AIMessage({
        id: "a",
        content: "",
        tool_calls: [{ name: "write_file", args: { path: "a" }, id: "c1" }],
      }),
      new AIMessage("ok"),
    ]);
    await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const done = await agent.invoke(
      new Command({
        resume: { decisions: [{ type: "edit", editedAction: { name: "read_file", args: { path: "x" } } }] },
      }),
      config,
    );
    expect(summary(done.messages).slice(1, 3)).toEqual([
      'ai:c1=read_file{"path":"x"}',
      "tool(c1,success):read x",
    ]);
    expect(runs).toEqual(["read:x"]);
  });

  it("reject with a message: answers it, drops approved calls, goes back to the model", async () => {
    const { agent, config, model } = setup({ interruptOn: { write_file: true, read_file: false } });
    await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const done = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "reject", message: "no" }, { type: "approve" }] } }),
      config,
    );
    expect(summary(done.messages)).toEqual([
      "human:go",
      'ai:c2=read_file{"path":"b"},c1=write_file{"path":"a"}',
      "tool(c1,error):no",
      "ai:done",
    ]);
    expect(runs).toEqual([]);
    const rejection = done.messages[2] as ToolMessage;
    expect(rejection.name).toBe("write_file");
    expect(summary(model.calls[1] ?? [])).toEqual([
      "human:go",
      'ai:c2=read_file{"path":"b"},c1=write_file{"path":"a"}',
      "tool(c1,error):no",
    ]);
  });

  it("reject without a message uses the default text (mixed with edit)", async () => {
    const { agent, config } = setup({ interruptOn: { write_file: true } });
    await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const done = await agent.invoke(
      new Command({
        resume: {
          decisions: [
            { type: "edit", editedAction: { name: "write_file", args: { path: "z" } } },
            { type: "reject" },
          ],
        },
      }),
      config,
    );
    expect(summary(done.messages)).toEqual([
      "human:go",
      'ai:c2=read_file{"path":"b"},c3=write_file{"path":"c"}',
      "tool(c3,error):User rejected the tool call for `write_file` with id c3",
      "ai:done",
    ]);
    expect(runs).toEqual([]);
  });

  it("does not interrupt when no configured tool is called, or for tools set to false", async () => {
    const { agent, config } = setup({ interruptOn: { read_file: false } });
    const done = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(interruptsOf(done)).toBeUndefined();
    expect(runs.sort()).toEqual(["read:b", "write:a", "write:c"]);
  });

  it("does nothing without interruptOn", async () => {
    const { agent, config } = setup({});
    const done = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(interruptsOf(done)).toBeUndefined();
    expect(done.messages.at(-1)?.text).toBe("done");
  });

  it("honours allowedDecisions, description (text and function), argsSchema and descriptionPrefix", async () => {
    const { agent, config } = setup({
      descriptionPrefix: "Please check",
      interruptOn: {
        write_file: {
          allowedDecisions: ["approve", "reject"],
          description: (call, state) =>
            `write ${String(call.args.path)} after ${state.messages.length} messages`,
          argsSchema: { type: "object" },
        },
        read_file: { allowedDecisions: ["approve"], description: "Reading" },
      },
    });
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const value = interruptValue(paused);
    expect(value.actionRequests.map((a) => a.description)).toEqual([
      "write a after 2 messages",
      "Reading",
      "write c after 2 messages",
    ]);
    expect(value.reviewConfigs).toEqual([
      { actionName: "write_file", allowedDecisions: ["approve", "reject"], argsSchema: { type: "object" } },
      { actionName: "read_file", allowedDecisions: ["approve"] },
      { actionName: "write_file", allowedDecisions: ["approve", "reject"], argsSchema: { type: "object" } },
    ]);
    await expect(
      agent.invoke(
        new Command({
          resume: {
            decisions: [
              { type: "edit", editedAction: { name: "write_file", args: {} } },
              { type: "approve" },
              { type: "approve" },
            ],
          },
        }),
        config,
      ),
    ).rejects.toThrow(
      `Unexpected human decision: {"type":"edit","editedAction":{"name":"write_file","args":{}}}. Decision type 'edit' is not allowed for tool 'write_file'. Expected one of ["approve","reject"] based on the tool's configuration.`,
    );
  });

  it("uses descriptionPrefix in the default description", async () => {
    const { agent, config } = setup({ descriptionPrefix: "Please check", interruptOn: { read_file: true } });
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(interruptValue(paused).actionRequests).toEqual([
      {
        name: "read_file",
        args: { path: "b" },
        description: 'Please check\n\nTool: read_file\nArgs: {\n  "path": "b"\n}',
      },
    ]);
  });

  it("hooks see the context with the prefix's default; default descriptions take the factory's prefix", async () => {
    // LangChain.js 1.5.14: the middleware's context schema gives descriptionPrefix a default, so
    // `when` (and description functions) read it in runtime.context; a prefix in the run's context
    // does not reach the default descriptions
    const contexts: unknown[] = [];
    const { agent, config } = setup({
      descriptionPrefix: "Factory",
      interruptOn: {
        read_file: {
          allowedDecisions: ["approve"],
          when: ({ runtime }) => {
            contexts.push(runtime.context);
            return true;
          },
        },
      },
    });
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(contexts).toEqual([{ descriptionPrefix: "Tool execution requires approval" }]);
    const { agent: other, config: otherConfig } = setup({
      descriptionPrefix: "Factory",
      interruptOn: { read_file: true },
    });
    const withContext = await other.invoke(
      { messages: [new HumanMessage("go")] },
      { ...otherConfig, context: { descriptionPrefix: "From context" } },
    );
    for (const result of [paused, withContext]) {
      expect(interruptValue(result).actionRequests[0]?.description).toBe(
        'Factory\n\nTool: read_file\nArgs: {\n  "path": "b"\n}',
      );
    }
  });

  it("a `when` predicate that returns false auto-approves the call", async () => {
    const seen: unknown[] = [];
    const { agent, config } = setup({
      interruptOn: {
        write_file: {
          allowedDecisions: ["approve"],
          when: ({ toolCall, tool }) => {
            seen.push(tool);
            return toolCall.args.path === "c";
          },
        },
      },
    });
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(interruptValue(paused).actionRequests.map((a) => a.args)).toEqual([{ path: "c" }]);
    expect(seen).toEqual([undefined, undefined]);
    const done = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
    expect(summary(done.messages)[1]).toBe(
      'ai:c1=write_file{"path":"a"},c2=read_file{"path":"b"},c3=write_file{"path":"c"}',
    );
    expect(runs.sort()).toEqual(["read:b", "write:a", "write:c"]);
  });

  it("takes interruptOn from the run's context", async () => {
    const { agent, config } = setup({});
    const paused = await agent.invoke(
      { messages: [new HumanMessage("go")] },
      { ...config, context: { interruptOn: { read_file: true } } },
    );
    expect(interruptValue(paused).actionRequests.map((a) => a.name)).toEqual(["read_file"]);
  });

  it("fails the run on a review entry without allowedDecisions, as LangChain.js's options check does", async () => {
    // the `{ allowAccept, allowEdit }` form of older docs: LangChain.js 1.5.14 throws its Zod 3
    // check's ZodError from the hook; the tool must not run unreviewed
    const legacy = { write_file: { allowAccept: true, allowEdit: true } } as never;
    const { agent, config } = setup({ interruptOn: legacy });
    const failure = await agent
      .invoke({ messages: [new HumanMessage("go")] }, config)
      .catch((e: unknown) => e);
    expect(runs).toEqual([]);
    expect((failure as Error).name).toBe("ZodError");
    const issues = (failure as { issues: Array<{ code: string; path: unknown[]; unionErrors: unknown[] }> })
      .issues;
    expect(issues.map((i) => [i.code, i.path, i.unionErrors.length])).toEqual([
      ["invalid_union", ["interruptOn", "write_file"], 2],
    ]);
    expect((failure as Error).message).toContain('"expected": "boolean",\n');
    expect((failure as Error).message).toContain('"message": "Expected boolean, received object"');
    expect((failure as Error).message).toContain(
      '"path": [\n              "interruptOn",\n              "write_file",\n              "allowedDecisions"\n            ],\n            "message": "Required"',
    );
    // a run context with a bad entry fails the same way, even when no tool is called
    const { agent: quiet, config: quietConfig } = setup({}, [new AIMessage("no tools")]);
    const contextFailure = await quiet
      .invoke(
        { messages: [new HumanMessage("go")] },
        { ...quietConfig, context: { interruptOn: { read_file: "yes" as never } } },
      )
      .catch((e: unknown) => e);
    expect((contextFailure as Error).name).toBe("ZodError");
  });

  it("a `when` that returns no boolean, or a description function that returns no text, fails the run", async () => {
    // LangChain.js 1.5.14 calls the functions its Zod 3 check wrapped, which check what they
    // return; a predicate that forgets its `return` must not let the call run unreviewed
    const cases: Array<[string, NonNullable<HumanInTheLoopMiddlewareConfig["interruptOn"]>, string]> = [
      [
        "when -> undefined",
        { write_file: { allowedDecisions: ["approve"], when: () => undefined as never } },
        "invalid_return_type",
      ],
      [
        "async when -> undefined",
        { write_file: { allowedDecisions: ["approve"], when: async () => undefined as never } },
        "invalid_type",
      ],
      [
        "description -> number",
        { write_file: { allowedDecisions: ["approve"], description: () => 42 as never } },
        "invalid_return_type",
      ],
    ];
    for (const [label, interruptOn, code] of cases) {
      const { agent, config } = setup({ interruptOn });
      const failure = await agent
        .invoke({ messages: [new HumanMessage("go")] }, config)
        .catch((e: unknown) => e);
      expect([
        label,
        (failure as Error).name,
        (failure as { issues?: Array<{ code: string }> }).issues?.[0]?.code,
      ]).toEqual([label, "ZodError", code]);
      expect(runs).toEqual([]);
    }
    // well-typed functions, synchronous or not, work as before
    const { agent, config } = setup({
      interruptOn: {
        write_file: {
          allowedDecisions: ["approve"],
          when: async () => true,
          description: async (call) => `async ${call.name}`,
        },
      },
    });
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    expect(interruptValue(paused).actionRequests.map((a) => a.description)).toEqual([
      "async write_file",
      "async write_file",
    ]);
  });

  it("validates the resume value", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "Invalid HITLResponse: decisions must be a non-empty array"],
      [
        { decisions: [{ type: "approve" }] },
        "Number of human decisions (1) does not match number of hanging tool calls (2).",
      ],
      [
        { decisions: [{ type: "edit", editedAction: { args: {} } }, { type: "approve" }] },
        'Invalid edited action for tool "write_file": name must be a string',
      ],
      [
        { decisions: [{ type: "edit", editedAction: { name: "write_file" } }, { type: "approve" }] },
        'Invalid edited action for tool "write_file": args must be an object',
      ],
      [
        { decisions: [{ type: "reject", message: 3 }, { type: "approve" }] },
        'Tool call response for "write_file" must be a string, got number',
      ],
    ];
    for (const [resume, error] of cases) {
      const { agent, config } = setup({ interruptOn: { write_file: true } });
      await agent.invoke({ messages: [new HumanMessage("go")] }, config);
      const failure = await agent.invoke(new Command({ resume }), config).catch((e: unknown) => e);
      // plain Errors, as LangChain.js throws them
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toBe(error);
      expect((failure as Error).name).toBe("Error");
      expect((failure as Error).constructor).toBe(Error);
    }
  });

  it("afterModel declares canJumpTo model and leaves the state's message untouched", async () => {
    const middleware = humanInTheLoopMiddleware({ interruptOn: { write_file: true } }) as AgentMiddleware;
    const after = middleware.afterModel as { canJumpTo: string[]; hook: unknown };
    expect(middleware.name).toBe("HumanInTheLoopMiddleware");
    expect(after.canJumpTo).toEqual(["model"]);
    const original = threeCalls();
    const hook = after.hook as (
      state: unknown,
      runtime: unknown,
    ) => Promise<{ messages: AIMessage[]; jumpTo?: string }>;
    const result = await hook(
      { messages: [new HumanMessage("go"), original] },
      { context: {}, interrupt: () => ({ decisions: [{ type: "reject" }, { type: "reject" }] }) },
    );
    expect(original.tool_calls).toHaveLength(3);
    expect(result.jumpTo).toBe("model");
    expect(result.messages[0]?.id).toBe("ai-1");
    expect(result.messages[0]?.tool_calls.map((c) => c.id)).toEqual(["c2", "c1", "c3"]);
  });
});
