// `import "agentgraph/zod"` gives Zod schemas (Zod 3 from `zod/v3`, and Zod 4 classic) a
// `.langgraph` property, as importing `@langchain/langgraph/zod` does in LangGraph.js:
// `z.array(z.string()).default([]).langgraph.reducer((a, b) => a.concat(b))` is the field with that
// reducer, the `.default(...)` its starting value, and `.langgraph.metadata(extra)` attaches
// `jsonSchemaExtra`. Deprecated there in favour of `registry`; kept so Zod 3 state ports.
import { z as z3 } from "zod/v3";
import { z as z4 } from "zod/v4";
import { zodDefaultGetter } from "../graph/index.js";
import { withLangGraph } from "./registry.js";

/**
 * What `schema.langgraph` offers. `reducer` returns the field itself, typed as a schema whose
 * updates are the reducer's `Input`.
 */
export interface ZodLangGraphPlugin<Schema, Output> {
  /** The field with this reducer; `updateSchema` checks its updates (default: the field's schema). */
  reducer<Input = Output>(
    fn: (current: Output, update: Input) => Output,
    updateSchema?: z3.ZodType<Input>,
  ): z3.ZodType<Output, z3.ZodTypeDef, Input>;
  /** The field with `jsonSchemaExtra` attached (LangGraph.js's `langgraph_nodes`, `langgraph_type`…). */
  metadata(jsonSchemaExtra: {
    langgraph_nodes?: string[];
    langgraph_type?: "prompt";
    [key: string]: unknown;
  }): Schema;
}

declare module "zod/v3" {
  interface ZodType<Output> {
    /** @deprecated as in LangGraph.js: use `registry` from `agentgraph/zod` with Zod 4. */
    langgraph: ZodLangGraphPlugin<this, Output>;
  }
}

const PLUGGED = Symbol.for("agentgraph.zod-plugin");

function plug(prototype: object): void {
  const marks = prototype as { [PLUGGED]?: true };
  if (marks[PLUGGED] === true || Object.hasOwn(prototype, "langgraph")) return;
  Object.defineProperty(prototype, PLUGGED, { value: true });
  Object.defineProperty(prototype, "langgraph", {
    configurable: true,
    get(this: object): ZodLangGraphPlugin<object, unknown> {
      const schema = this;
      return {
        reducer<Input>(fn: (current: unknown, update: Input) => unknown, updateSchema?: z3.ZodType<Input>) {
          const initial = zodDefaultGetter(schema);
          withLangGraph(schema, {
            ...(initial === undefined ? {} : { default: initial }),
            reducer: {
              fn: fn as (current: unknown, update: unknown) => unknown,
              ...(updateSchema === undefined ? {} : { schema: updateSchema as never }),
            },
          });
          return schema as z3.ZodType<unknown, z3.ZodTypeDef, Input>;
        },
        metadata(jsonSchemaExtra: Record<string, unknown>) {
          withLangGraph(schema, { jsonSchemaExtra });
          return schema;
        },
      };
    },
  });
}

plug(z3.ZodType.prototype);
plug(z4.ZodType.prototype);
