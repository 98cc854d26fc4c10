/**
 * Checks `BaseToolkit` and `isRunnableToolLike` against `@langchain/core/tools` 1.4.0 (a dev
 * dependency): toolkits hand out the same array, and the guard recognises the same values
 * (ours always answers a boolean; LangChain.js answers `undefined` for some non-runnables).
 */
import { RunnableLambda } from "@langchain/core/runnables";
import * as lc from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isLangChainTool, isRunnableToolLike } from "./structured-tool.js";
import { tool } from "./tool.js";
import { BaseToolkit } from "./toolkit.js";

const schema = z.object({ city: z.string() });
const ourTool = tool(async ({ city }) => `sunny in ${city}`, { name: "weather", description: "d", schema });
const theirTool = lc.tool(async ({ city }) => `sunny in ${city}`, {
  name: "weather",
  description: "d",
  schema,
});

describe("BaseToolkit matches LangChain.js", () => {
  it("getTools returns the tools array itself", () => {
    class Ours extends BaseToolkit {
      tools = [ourTool];
    }
    class Theirs extends lc.BaseToolkit {
      tools = [theirTool];
    }
    const a = new Ours();
    const b = new Theirs();
    expect(a.getTools()).toBe(a.tools);
    expect(b.getTools()).toBe(b.tools);
    expect(a.getTools().map((t) => t.name)).toEqual(b.getTools().map((t) => t.name));
  });

  it("reads `tools` when getTools is called, like LangChain.js", () => {
    class Ours extends BaseToolkit {
      tools = [ourTool];
    }
    class Theirs extends lc.BaseToolkit {
      tools = [theirTool];
    }
    const a = new Ours();
    const b = new Theirs();
    a.tools = [];
    b.tools = [];
    expect(a.getTools()).toEqual(b.getTools());
  });

  it("has getTools on the prototype and no own fields", () => {
    expect(typeof BaseToolkit.prototype.getTools).toBe(typeof lc.BaseToolkit.prototype.getTools);
    class Empty extends BaseToolkit {
      declare tools: [];
    }
    class LcEmpty extends lc.BaseToolkit {
      declare tools: [];
    }
    expect(Object.keys(new Empty())).toEqual(Object.keys(new LcEmpty()));
    expect(new Empty().getTools()).toBe(new LcEmpty().getTools());
  });
});

describe("isRunnableToolLike matches LangChain.js", () => {
  const runnableTool = RunnableLambda.from(async ({ city }: { city: string }) => `sunny in ${city}`).asTool({
    name: "weather",
    description: "d",
    schema,
  });
  const lambda = RunnableLambda.from((x: string) => x);
  const values: Array<[string, unknown]> = [
    ["a LangChain.js RunnableToolLike", runnableTool],
    ["a LangChain.js runnable", lambda],
    ["a LangChain.js tool", theirTool],
    ["an agentgraph tool", ourTool],
    ["a look-alike", { lc_runnable: true, constructor: { lc_name: () => "RunnableToolLike" } }],
    ["a runnable flag only", { lc_runnable: true }],
    ["an empty object", {}],
    ["undefined", undefined],
    ["null", null],
    ["a string", "RunnableToolLike"],
  ];
  it.each(values)("%s", (_label, value) => {
    expect(isRunnableToolLike(value)).toBe(Boolean(lc.isRunnableToolLike(value)));
  });

  it("counts a RunnableToolLike as a LangChain tool, as LangChain.js does", () => {
    expect(isLangChainTool(runnableTool)).toBe(lc.isLangChainTool(runnableTool));
    expect(isLangChainTool(runnableTool)).toBe(true);
  });
});
