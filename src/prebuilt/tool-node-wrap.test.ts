/** The `wrapToolCall` hook of ToolNode, and composing hooks with `chainWrapToolCall`. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command } from "../index.js";
import { AIMessage, type ToolCall, ToolMessage } from "../messages/index.js";
import { tool } from "../tools/index.js";
import { chainWrapToolCall, type ToolCallRequest, ToolNode, type WrapToolCall } from "./index.js";

const call = (name: string, id: string, args: Record<string, unknown> = {}): ToolCall => ({
  name,
  args,
  id,
  type: "tool_call",
});
const state = (...calls: ToolCall[]) => ({ messages: [new AIMessage({ content: "", tool_calls: calls })] });
type Messages = { messages: ToolMessage[] };

const add = tool(async ({ a, b }) => String(a + b), {
  name: "add",
  description: "",
  schema: z.object({ a: z.number(), b: z.number() }),
});

describe("wrapToolCall", () => {
  it("sees the call, the tool, the state and the runtime", async () => {
    const requests: ToolCallRequest[] = [];
    const input = state(call("add", "1", { a: 1, b: 2 }));
    await new ToolNode([add], {
      wrapToolCall: (request, execute) => {
        requests.push(request);
        return execute(request);
      },
    }).invoke(input);
    const request = requests[0];
    expect(request?.toolCall.id).toBe("1");
    expect(request?.tool).toBe(add);
    expect(request?.state).toBe(input);
    expect(request?.runtime.toolCallId).toBe("1");
  });

  it("can short-circuit without running the tool (also for unknown tools)", async () => {
    let ran = false;
    const spy = tool(
      async () => {
        ran = true;
        return "real";
      },
      { name: "spy", description: "", schema: z.object({}) },
    );
    const node = new ToolNode([spy], {
      wrapToolCall: ({ toolCall, tool: found }) =>
        new ToolMessage({ content: `cached ${found?.name ?? "none"}`, tool_call_id: toolCall.id ?? "" }),
    });
    const out = (await node.invoke(state(call("spy", "1"), call("ghost", "2")))) as Messages;
    expect(ran).toBe(false);
    expect(out.messages.map((m) => [m.tool_call_id, m.content])).toEqual([
      ["1", "cached spy"],
      ["2", "cached none"],
    ]);
  });

  it("can retry: execute throws the tool's error, and may be called again", async () => {
    let attempts = 0;
    const flaky = tool(
      async () => {
        attempts += 1;
        if (attempts < 3) throw new Error(`attempt ${attempts} failed`);
        return "third time lucky";
      },
      { name: "flaky", description: "", schema: z.object({}) },
    );
    const errors: string[] = [];
    const retry: WrapToolCall = async (request, execute) => {
      for (;;) {
        try {
          return await execute(request);
        } catch (error) {
          errors.push((error as Error).message);
          if (errors.length >= 5) throw error;
        }
      }
    };
    const out = (await new ToolNode([flaky], { wrapToolCall: retry }).invoke(
      state(call("flaky", "1")),
    )) as Messages;
    expect(errors).toEqual(["attempt 1 failed", "attempt 2 failed"]);
    expect(out.messages[0]?.content).toBe("third time lucky");
  });

  it("can rewrite the arguments and the result", async () => {
    const node = new ToolNode([add], {
      wrapToolCall: async (request, execute) => {
        const result = await execute({
          ...request,
          toolCall: { ...request.toolCall, args: { a: 10, b: 20 } },
        });
        if (result instanceof ToolMessage) result.content = `sum=${String(result.content)}`;
        return result;
      },
    });
    const out = (await node.invoke(state(call("add", "1", { a: 1, b: 1 })))) as Messages;
    expect(out.messages[0]?.content).toBe("sum=30");
  });

  it("may return a Command", async () => {
    const node = new ToolNode([add], {
      wrapToolCall: ({ toolCall }) =>
        new Command({
          update: { messages: [new ToolMessage({ content: "skipped", tool_call_id: toolCall.id ?? "" })] },
          goto: "elsewhere",
        }),
    });
    const out = (await node.invoke(state(call("add", "1", { a: 1, b: 1 })))) as unknown[];
    expect(out).toHaveLength(1);
    expect((out[0] as Command).goto).toEqual(["elsewhere"]);
  });

  it("errors escaping the hook are handled by handleToolErrors", async () => {
    const failing: WrapToolCall = () => {
      throw new Error("hook failed");
    };
    const handled = (await new ToolNode([add], { wrapToolCall: failing }).invoke(
      state(call("add", "1", { a: 1, b: 1 })),
    )) as Messages;
    expect(handled.messages.map((m) => [m.content, m.status])).toEqual([
      ["Error: hook failed\n Please fix your mistakes.", "error"],
    ]);
    await expect(
      new ToolNode([add], { wrapToolCall: failing, handleToolErrors: false }).invoke(
        state(call("add", "1", { a: 1, b: 1 })),
      ),
    ).rejects.toThrow("hook failed");
  });
});

describe("chainWrapToolCall", () => {
  it("runs hooks outermost first, each wrapping the next", async () => {
    const log: string[] = [];
    const named =
      (name: string): WrapToolCall =>
      async (request, execute) => {
        log.push(`${name} in`);
        const result = await execute(request);
        log.push(`${name} out`);
        return result;
      };
    const node = new ToolNode([add], { wrapToolCall: chainWrapToolCall(named("outer"), named("inner")) });
    const out = (await node.invoke(state(call("add", "1", { a: 2, b: 2 })))) as Messages;
    expect(log).toEqual(["outer in", "inner in", "inner out", "outer out"]);
    expect(out.messages[0]?.content).toBe("4");
  });

  it("passes each hook's rewritten request to the next", async () => {
    const double: WrapToolCall = (request, execute) => {
      const { a, b } = request.toolCall.args as { a: number; b: number };
      return execute({ ...request, toolCall: { ...request.toolCall, args: { a: a * 2, b: b * 2 } } });
    };
    const node = new ToolNode([add], { wrapToolCall: chainWrapToolCall(double, double) });
    const out = (await node.invoke(state(call("add", "1", { a: 1, b: 2 })))) as Messages;
    expect(out.messages[0]?.content).toBe("12");
  });

  it("with no hooks just executes", async () => {
    const node = new ToolNode([add], { wrapToolCall: chainWrapToolCall() });
    const out = (await node.invoke(state(call("add", "1", { a: 1, b: 2 })))) as Messages;
    expect(out.messages[0]?.content).toBe("3");
  });
});
