// Type-level parity with @langchain/core 1.4.0 for tools (checked by `tsc -p tsconfig.json`; the
// runtime part runs under vitest): the type arguments of the tool classes, the literal name
// `tool()` keeps, and the second-parameter types a tool function may be annotated with. Each
// case type-checks against @langchain/core too.
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import type { LangGraphRunnableConfig, RunnableConfig, Runtime } from "../index.js";
import type { ToolMessage } from "../messages/index.js";
import type {
  BaseDynamicToolInput,
  ClientTool,
  ContentAndArtifact,
  DynamicToolInput,
  ServerTool,
  StructuredToolParams,
  ToolInterface,
  ToolReturnType,
  ToolSchemaBase,
  ToolWrapperParams,
} from "./index.js";
import {
  DynamicStructuredTool,
  DynamicTool,
  type StructuredTool,
  type Tool,
  type ToolRunnableConfig,
  type ToolRuntime,
  tool,
} from "./index.js";

const schema = z.object({ city: z.string() });
const getWeather = tool(async ({ city }) => `sunny in ${city}`, {
  name: "get_weather",
  description: "Get the weather.",
  schema,
});
const shout = tool(async (text: string) => text.toUpperCase(), { name: "shout", description: "Shouts." });

describe("tool() and the tool classes' type arguments", () => {
  it("keeps the tool's name as a literal type", () => {
    expectTypeOf(getWeather.name).toEqualTypeOf<"get_weather">();
    expectTypeOf(getWeather).toEqualTypeOf<
      DynamicStructuredTool<typeof schema, { city: string }, { city: string }, string, unknown, "get_weather">
    >();
    const add = new DynamicStructuredTool({
      name: "add",
      description: "Adds.",
      schema: z.object({ a: z.number(), b: z.number() }),
      func: async ({ a, b }) => a + b,
    });
    expectTypeOf(add.name).toEqualTypeOf<"add">();
    // a name that is only known as a string stays a string
    const name: string = "dynamic";
    expectTypeOf(tool(async () => "x", { name, schema }).name).toBeString();
  });

  it("takes DynamicStructuredTool's six type arguments in LangChain.js's order", () => {
    const one: DynamicStructuredTool<typeof schema> = getWeather;
    const two: DynamicStructuredTool<typeof schema, { city: string }> = getWeather;
    const four: DynamicStructuredTool<typeof schema, { city: string }, { city: string }, string> = getWeather;
    const six: DynamicStructuredTool<
      typeof schema,
      { city: string },
      { city: string },
      string,
      unknown,
      "get_weather"
    > = getWeather;
    expectTypeOf(one.func).parameter(0).toEqualTypeOf<{ city: string }>();
    expectTypeOf(four.invoke({ city: "Paris" })).resolves.toEqualTypeOf<string>();
    // @ts-expect-error the name type argument is the tool's name
    const wrongName: DynamicStructuredTool<
      typeof schema,
      { city: string },
      { city: string },
      string,
      unknown,
      "x"
    > = getWeather;
    void [two, six, wrongName];
  });

  it("types a string tool of a Zod 3 string schema as a DynamicTool, as it is made", () => {
    const upper = tool(async (text) => text.toUpperCase(), {
      name: "upper",
      description: "Upper-cases.",
      schema: z3.string(),
    });
    expectTypeOf(upper).toEqualTypeOf<DynamicTool<string>>();
    expect(upper).toBeInstanceOf(DynamicTool);
  });

  it("makes every tool a StructuredTool, and every DynamicStructuredTool one of the defaults", () => {
    const all: StructuredTool[] = [getWeather, shout];
    const dynamic: DynamicStructuredTool[] = [getWeather];
    const byName: StructuredTool<typeof schema> = getWeather;
    const strings: Tool = shout;
    const strings2: DynamicTool<string> = shout;
    const strings3: DynamicTool<string, unknown> = shout;
    void [all, dynamic, byName, strings, strings2, strings3];
  });
});

describe("the second parameter of a tool() function", () => {
  type Prefs = { units?: string };

  it("may be left unannotated, or annotated as ToolRuntime<State, Context>", () => {
    const plain = tool(async ({ city }, runtime) => `${city} ${runtime.toolCall?.id}`, {
      name: "plain",
      schema,
    });
    expectTypeOf(plain.name).toEqualTypeOf<"plain">();
    const typed = tool(
      async ({ city }, runtime: ToolRuntime<{ messages: unknown[] }, { userId: string }>) =>
        `${city} ${runtime.context.userId} ${runtime.state.messages.length}`,
      { name: "typed", schema },
    );
    expectTypeOf(typed.name).toEqualTypeOf<"typed">();
  });

  it("may be annotated with a config type whose fields are optional (Partial<Runtime<C>>, …)", async () => {
    const partialRuntime = tool(
      async ({ city }, runtime: Partial<Runtime<Prefs>>) =>
        `${city} in ${runtime.context?.units ?? "celsius"}`,
      { name: "partial_runtime", description: "Weather.", schema },
    );
    expectTypeOf(partialRuntime).toEqualTypeOf<
      DynamicStructuredTool<
        typeof schema,
        { city: string },
        { city: string },
        string,
        unknown,
        "partial_runtime"
      >
    >();
    const langGraphConfig = tool(
      async ({ city }, config: LangGraphRunnableConfig<Prefs>) => `${city} ${config.context?.units}`,
      { name: "lg_config", schema },
    );
    const toolConfig = tool(
      async ({ city }, config: ToolRunnableConfig) => `${city} ${config.toolCall?.id}`,
      {
        name: "tool_config",
        schema,
      },
    );
    const runnableConfig = tool(async ({ city }, config?: RunnableConfig) => `${city} ${config?.runName}`, {
      name: "runnable_config",
      schema,
    });
    const stringTool = tool(
      async (text, runtime: Partial<Runtime<Prefs>>) => `${text} ${runtime.context?.units}`,
      {
        name: "string_tool",
        schema: z.string(),
      },
    );
    expectTypeOf(langGraphConfig.name).toEqualTypeOf<"lg_config">();
    expectTypeOf(toolConfig.name).toEqualTypeOf<"tool_config">();
    expectTypeOf(runnableConfig.name).toEqualTypeOf<"runnable_config">();
    expectTypeOf(stringTool).toEqualTypeOf<DynamicTool<string>>();
    // the function still gets the tool's runtime
    const call = { name: "partial_runtime", args: { city: "Paris" }, id: "c1", type: "tool_call" as const };
    const message = await partialRuntime.invoke(call, { context: { units: "kelvin" } });
    expect(message.content).toBe("Paris in kelvin");
  });

  it("can be passed on as the config of another tool's invoke", async () => {
    const outer = tool(
      async ({ city }, runtime) => {
        expectTypeOf(runtime).toExtend<ToolRunnableConfig | undefined>();
        return getWeather.invoke({ city }, runtime);
      },
      { name: "outer", schema },
    );
    expect(await outer.invoke({ city: "Paris" })).toBe("sunny in Paris");
  });

  it("may not be annotated with a type whose fields the runtime lacks", () => {
    tool(
      // @ts-expect-error `required` is no field of the tool's runtime
      async ({ city }, runtime: { required: number }) => `${city} ${runtime.required}`,
      { name: "bad", schema },
    );
  });
});

describe("@langchain/core/tools's type names, from agentgraph/tools", () => {
  it("types a tool's fields, inputs and outputs as a ported program writes them", async () => {
    const fields: DynamicToolInput<string> = {
      name: "shout",
      description: "Upper-cases text.",
      func: async (input) => input.toUpperCase(),
    };
    const base: BaseDynamicToolInput = { name: "base", description: "A tool.", returnDirect: true };
    const loud = new DynamicTool(fields);
    const asInterface: ToolInterface = loud;
    const client: ClientTool = loud;
    const server: ServerTool = { type: "web_search_preview" };
    const params: StructuredToolParams = { name: "search", schema, description: "Search." };
    const wrapper: ToolWrapperParams<typeof schema, "get_weather"> = { name: "get_weather", schema };
    const schemaBase: ToolSchemaBase = schema;
    const pair: ContentAndArtifact = ["2 hits", { hits: 2 }];
    const call = { name: "get_weather", args: { city: "Paris" }, id: "c1", type: "tool_call" as const };
    expectTypeOf<ToolReturnType<typeof call, undefined, string>>().toEqualTypeOf<ToolMessage>();
    expectTypeOf<ToolReturnType<{ city: string }, undefined, string>>().toEqualTypeOf<string>();
    expectTypeOf<
      ToolReturnType<{ city: string }, { toolCall: { id: string } }, string>
    >().toEqualTypeOf<ToolMessage>();
    expect(await asInterface.invoke("hi")).toBe("HI");
    expect([base, client, server, params, schemaBase, pair, wrapper.name]).toHaveLength(7);
  });
});
