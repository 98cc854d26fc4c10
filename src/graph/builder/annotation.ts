import {
  BaseChannel,
  type BinaryOperator,
  BinaryOperatorAggregate,
  isBaseChannel,
  LastValue,
} from "../channels/index.js";
import { InvalidGraphError, type Overwrite } from "../core/index.js";
import type { NodeAction } from "./types.js";

/** How a state key combines writes: a reducer and an optional default. */
export type SingleReducer<Value, Update = Value> =
  | { reducer: BinaryOperator<Value, Update>; default?: () => Value }
  /** @deprecated Use `reducer`. */
  | { value: BinaryOperator<Value, Update>; default?: () => Value }
  | null;

/** A state declaration: one channel (or channel factory such as `Annotation<T>`) per key. */
export type StateDefinition = { [key: string]: BaseChannel | (() => BaseChannel) };

type ChannelOf<C> = C extends BaseChannel
  ? C
  : C extends (...args: never[]) => infer R
    ? R extends BaseChannel
      ? R
      : never
    : never;

/** The value type of a state key. */
export type ExtractValueType<C> = ChannelOf<C>["ValueType"];
/** The update type of a state key. */
export type ExtractUpdateType<C> = ChannelOf<C>["UpdateType"];

/** The state object a definition describes. */
export type StateType<SD extends StateDefinition> = { [K in keyof SD]: ExtractValueType<SD[K]> };
/**
 * The updates a node may return for a definition: any subset of the keys, each an update of its
 * channel or an `Overwrite` of its value (which bypasses the reducer), as in LangGraph.js.
 */
export type UpdateType<SD extends StateDefinition> = {
  [K in keyof SD]?: ExtractUpdateType<SD[K]> | Overwrite<ExtractValueType<SD[K]>>;
};

/** A node function of a state definition: reads its state, returns an update (LangGraph.js's `NodeType`). */
export type NodeType<SD extends StateDefinition> = NodeAction<
  StateType<SD>,
  UpdateType<SD> | Partial<StateType<SD>>
>;

/**
 * A state schema made with `Annotation.Root({...})`. `typeof Root.State` is the state type and
 * `typeof Root.Update` the update type.
 */
export class AnnotationRoot<SD extends StateDefinition> {
  readonly lc_graph_name = "AnnotationRoot";
  declare State: StateType<SD>;
  declare Update: UpdateType<SD>;
  declare Node: (state: StateType<SD>) => UpdateType<SD> | Promise<UpdateType<SD>>;
  readonly spec: SD;

  constructor(spec: SD) {
    this.spec = spec;
  }
}

/** The `Annotation` function: `Annotation<T>()` declares a last-value key, `Annotation<T>({ reducer, default })` a reduced one. */
export interface AnnotationFunction {
  <Value>(): LastValue<Value>;
  <Value, Update = Value>(annotation: SingleReducer<Value, Update>): BinaryOperatorAggregate<Value, Update>;
  /** Declares a state schema. */
  Root: <SD extends StateDefinition>(spec: SD) => AnnotationRoot<SD>;
}

/**
 * Declares one key of graph state.
 *
 * @example
 * ```ts
 * const State = Annotation.Root({
 *   question: Annotation<string>,                       // last value wins
 *   notes: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
 * });
 * ```
 */
export const Annotation: AnnotationFunction = Object.assign(
  <Value, Update = Value>(annotation?: SingleReducer<Value, Update>): BaseChannel<Value, Update> => {
    if (annotation === undefined || annotation === null)
      return new LastValue<Value>() as unknown as BaseChannel<Value, Update>;
    return channelFromReducer(annotation);
  },
  { Root: <SD extends StateDefinition>(spec: SD) => new AnnotationRoot(spec) },
) as AnnotationFunction;

function channelFromReducer<Value, Update>(
  annotation: Exclude<SingleReducer<Value, Update>, null>,
): BaseChannel<Value, Update> {
  const reducer = "reducer" in annotation ? annotation.reducer : annotation.value;
  if (typeof reducer !== "function") {
    return new LastValue<Value>(annotation.default) as unknown as BaseChannel<Value, Update>;
  }
  return new BinaryOperatorAggregate<Value, Update>(reducer, annotation.default);
}

/** Turns one entry of a state definition into a channel. */
export function channelFromDefinition(key: string, entry: unknown): BaseChannel {
  if (isBaseChannel(entry)) return entry;
  if (typeof entry === "function") {
    const made = (entry as () => unknown)();
    if (isBaseChannel(made)) return made;
  }
  throw new InvalidGraphError(
    `State key "${key}" is not a channel. Declare it with Annotation<T>() or Annotation<T>({ reducer, default }).`,
  );
}

/**
 * Turns one entry of the legacy `new StateGraph({ channels: {...} })` map into a channel:
 * `{ reducer, default }` (or `{ value, default }`) is a reduced key, a channel or channel factory
 * is used as given, and anything else (`null`, an object without a reducer, or a plain value such
 * as the `next: "initialValueForNext"` of LangGraph.js's supervisor example) is a last-value key
 * without a default, as in LangGraph.js.
 */
export function channelFromLegacyEntry(key: string, entry: unknown): BaseChannel {
  if (isBaseChannel(entry) || typeof entry === "function") return channelFromDefinition(key, entry);
  if (typeof entry === "object" && entry !== null) {
    const spec = entry as { reducer?: unknown; value?: unknown; default?: () => unknown };
    const reducer = spec.reducer ?? spec.value;
    if (typeof reducer === "function") {
      return new BinaryOperatorAggregate(reducer as BinaryOperator<unknown, unknown>, spec.default);
    }
  }
  return new LastValue<unknown>();
}

/** True for an `Annotation.Root(...)` from any copy of the library. */
export function isAnnotationRoot(value: unknown): value is AnnotationRoot<StateDefinition> {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { lc_graph_name?: unknown }).lc_graph_name === "AnnotationRoot" &&
    typeof (value as { spec?: unknown }).spec === "object"
  );
}

export { BaseChannel };
