import type { StructuredToolInterface } from "./structured-tool.js";

/**
 * A set of related tools, as in LangChain.js: subclass it, set `tools`, and hand
 * `getTools()` to a model's `bindTools` or an agent. `getTools()` returns the `tools` array
 * itself (not a copy).
 *
 * @example
 * ```ts
 * class WeatherToolkit extends BaseToolkit {
 *   tools = [getWeather, getForecast];
 * }
 * const agent = createAgent({ model, tools: new WeatherToolkit().getTools() });
 * ```
 */
export abstract class BaseToolkit {
  /** The toolkit's tools. */
  abstract tools: StructuredToolInterface[];

  /** The toolkit's tools: the `tools` array. */
  getTools(): StructuredToolInterface[] {
    return this.tools;
  }
}
