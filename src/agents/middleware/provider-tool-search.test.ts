import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AIMessage, HumanMessage } from "../../messages/index.js";
import { tool } from "../../tools/index.js";
import { createAgent } from "../create-agent.js";
import { createMiddleware } from "../middleware.js";
import { fakeModel } from "../testing/fake-model.js";
import type { AgentTool } from "../types.js";
import { providerToolSearchMiddleware } from "./provider-tool-search.js";

const schema = z.object({ q: z.string() });
const weather = tool(async () => "sunny", { name: "weather", description: "Weather.", schema });
const invoice = tool(async () => "sent", { name: "invoice", description: "Invoices.", schema });
const email = tool(async () => "sent", {
  name: "email",
  description: "Emails.",
  schema,
  extras: { defer_loading: true },
});

function namedModel(name: string) {
  const model = fakeModel().respond(new AIMessage("ok"));
  Object.assign(model, { getName: () => name });
  return model;
}

async function toolsSent(name: string, tools: AgentTool[], searchable?: Array<string | { name: string }>) {
  const seen: AgentTool[][] = [];
  const spy = createMiddleware({
    name: "Spy",
    wrapModelCall: (request, handler) => {
      seen.push(request.tools);
      return handler(request);
    },
  });
  await createAgent({
    model: namedModel(name),
    tools,
    middleware: [providerToolSearchMiddleware({ searchableTools: searchable }), spy],
  }).invoke({ messages: [new HumanMessage("hi")] });
  return seen[0] ?? [];
}

describe("providerToolSearchMiddleware", () => {
  it("defers the searchable tools and adds Anthropic's BM25 search tool", async () => {
    const sent = await toolsSent("ChatAnthropic", [weather, invoice], ["invoice"]);
    expect(sent[0]).toBe(weather);
    expect(sent[1]).toEqual({
      name: "invoice",
      description: "Invoices.",
      schema,
      extras: { defer_loading: true },
    });
    expect(sent[2]).toEqual({ type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" });
  });

  it("honours extras.defer_loading and adds OpenAI's tool_search tool", async () => {
    const sent = await toolsSent("ChatOpenAI", [weather, email]);
    expect(sent.map((t) => (t as { name?: string }).name)).toEqual(["weather", "email", undefined]);
    expect(sent[2]).toEqual({ type: "tool_search" });
  });

  it("leaves the request alone without deferred tools", async () => {
    const sent = await toolsSent("ChatOpenAI", [weather, invoice]);
    expect(sent).toEqual([weather, invoice]);
    expect(providerToolSearchMiddleware().name).toBe("ProviderToolSearch");
  });

  it("rejects unknown searchable tools and providers without tool search", async () => {
    await expect(toolsSent("ChatOpenAI", [weather], ["nope"])).rejects.toThrow(
      "providerToolSearchMiddleware: searchableTools references tool(s) not bound to the model: nope",
    );
    await expect(toolsSent("ChatOllama", [weather])).rejects.toThrow(
      "providerToolSearchMiddleware requires a provider with server-side tool search, but got other",
    );
  });
});
