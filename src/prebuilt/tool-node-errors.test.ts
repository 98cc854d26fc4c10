/**
 * ToolNode error handling: each form of `handleToolErrors`, unknown tools, and the signals
 * that always propagate. Texts checked against @langchain/langgraph 1.7.3.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Command, GraphInterrupt, ParentCommand } from "../index.js";
import { AIMessage, type ToolCall, ToolMessage } from "../messages/index.js";
import { AbortError } from "../shared/index.js";
import { tool } from "../tools/index.js";
import { type HandleToolErrors, ToolNode, ToolNotFoundError } from "./index.js";

const call = (name: string, id: string, args: Record<string, unknown> = {}): ToolCall => ({
  name,
  args,
  id,
  type: "tool_call",
});
const state = (...calls: ToolCall[]) => ({ messages: [new AIMessage({ content: "", tool_calls: calls })] });
const throwing = (name: string, error: unknown) =>
  tool(
    async () => {
      throw error;
    },
    { name, description: "", schema: z.object({}) },
  );
const ok = tool(async () => "fine", { name: "ok", description: "", schema: z.object({}) });

type Messages = { messages: ToolMessage[] };
const run = async (handle: HandleToolErrors | undefined, ...calls: ToolCall[]) => {
  const options = handle === undefined ? {} : { handleToolErrors: handle };
  return (await new ToolNode([throwing("boom", new Error("kaboom")), ok], options).invoke(
    state(...calls),
  )) as Messages;
};

describe("handleToolErrors", () => {
  it("by default answers with the error text and status error, other calls unaffected", async () => {
    const out = await run(undefined, call("boom", "1"), call("ok", "2"));
    expect(out.messages.map((m) => [m.tool_call_id, m.name, m.status, m.content])).toEqual([
      ["1", "boom", "error", "Error: kaboom\n Please fix your mistakes."],
      ["2", "ok", "success", "fine"],
    ]);
  });

  it("true behaves as the default", async () => {
    const out = await run(true, call("boom", "1"));
    expect(out.messages[0]?.content).toBe("Error: kaboom\n Please fix your mistakes.");
  });

  it("reports thrown non-Error values by their text", async () => {
    const out = (await new ToolNode([throwing("str", "bad input")]).invoke(
      state(call("str", "1")),
    )) as Messages;
    expect(out.messages[0]?.content).toBe("Error: bad input\n Please fix your mistakes.");
  });

  it("false rethrows the tool's error", async () => {
    await expect(run(false, call("boom", "1"))).rejects.toThrow("kaboom");
  });

  it("a string replaces every error's text", async () => {
    const out = await run("Tool failed, try again.", call("boom", "1"));
    expect(out.messages.map((m) => [m.content, m.status, m.tool_call_id])).toEqual([
      ["Tool failed, try again.", "error", "1"],
    ]);
  });

  it("a function receives the error and the call, and may return text", async () => {
    const seen: [string, string][] = [];
    const out = await run(
      (error, toolCall) => {
        seen.push([(error as Error).message, toolCall.name]);
        return `handled ${toolCall.id}`;
      },
      call("boom", "1"),
    );
    expect(seen).toEqual([["kaboom", "boom"]]);
    expect(out.messages.map((m) => [m.content, m.status, m.name])).toEqual([["handled 1", "error", "boom"]]);
  });

  it("a function may return a whole ToolMessage (call id and name filled in)", async () => {
    const out = await run(
      async () => new ToolMessage({ content: "custom", tool_call_id: "", status: "success" }),
      call("boom", "1"),
    );
    expect(out.messages.map((m) => [m.content, m.status, m.tool_call_id, m.name])).toEqual([
      ["custom", "success", "1", "boom"],
    ]);
  });

  it("a function that throws fails the run", async () => {
    await expect(
      run(
        () => {
          throw new Error("handler gave up");
        },
        call("boom", "1"),
      ),
    ).rejects.toThrow("handler gave up");
  });
});

describe("unknown tools", () => {
  it("answer with the reference text and status error", async () => {
    const out = await run(undefined, call("nope", "9"));
    expect(out.messages.map((m) => [m.content, m.status, m.name, m.tool_call_id])).toEqual([
      ['Error: Tool "nope" not found.\n Please fix your mistakes.', "error", "nope", "9"],
    ]);
  });

  it("throw ToolNotFoundError when errors are not handled", async () => {
    await expect(run(false, call("nope", "9"))).rejects.toBeInstanceOf(ToolNotFoundError);
  });
});

describe("signals that always propagate", () => {
  const everyForm: HandleToolErrors[] = [true, "swallowed", () => "swallowed"];

  it.each(everyForm)("an interrupt propagates (handleToolErrors %s)", async (handle) => {
    const node = new ToolNode([throwing("ask", new GraphInterrupt([{ id: "i1", value: "approve?" }])), ok], {
      handleToolErrors: handle,
    });
    await expect(node.invoke(state(call("ask", "1"), call("ok", "2")))).rejects.toBeInstanceOf(
      GraphInterrupt,
    );
  });

  it.each(everyForm)("a parent command propagates (handleToolErrors %s)", async (handle) => {
    const signal = new ParentCommand(new Command({ graph: Command.PARENT, goto: "x" }));
    const node = new ToolNode([throwing("up", signal)], { handleToolErrors: handle });
    await expect(node.invoke(state(call("up", "1")))).rejects.toBe(signal);
  });

  it.each(everyForm)("an abort propagates (handleToolErrors %s)", async (handle) => {
    const node = new ToolNode([throwing("abort", new AbortError("stopped"))], { handleToolErrors: handle });
    await expect(node.invoke(state(call("abort", "1")))).rejects.toThrow("stopped");
  });

  it("any error after the run's signal aborted propagates", async () => {
    const controller = new AbortController();
    const failing = tool(
      async () => {
        controller.abort();
        throw new Error("socket closed");
      },
      { name: "net", description: "", schema: z.object({}) },
    );
    const node = new ToolNode([failing]);
    await expect(node.invoke(state(call("net", "1")), { signal: controller.signal })).rejects.toThrow();
  });
});
