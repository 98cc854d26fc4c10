import { InvalidUpdateError, unwrapOverwrite } from "../core/index.js";
import { type BaseChannel, MISSING, SingleValueChannel } from "./base.js";
import { stampMessageIds } from "./message-ids.js";

/** A reducer: folds one update into the current value. */
export type BinaryOperator<Value, Update = Value> = (current: Value, update: Update) => Value;

/**
 * Marks a reducer whose result depends only on its arguments, and which a channel may therefore
 * skip calling again for the same arguments (see {@link BinaryOperatorAggregate.rememberUpdate}).
 * A registered symbol, so that the messages module marks its reducer without importing the engine.
 */
const PURE_REDUCER = Symbol.for("agentgraph.reducer.pure");

/**
 * Marks a reducer that gives every message object of an update an id, in place, when it has
 * none (the messages reducer, as LangGraph.js's does). For such a channel the engine gives the
 * messages of a finished task's writes their ids before streaming them (see
 * {@link BinaryOperatorAggregate.stampMessageIds}). A registered symbol, like {@link PURE_REDUCER}.
 */
const STAMPS_MESSAGE_IDS = Symbol.for("agentgraph.reducer.stamps_message_ids");

/** Per channels object: the names of its channels whose reducer stamps message ids (`null`: none). */
const stampingChannelsOf = new WeakMap<object, Set<string> | null>();

/** A fold a reader computed ahead of the step's end: `result` = the writes `values` folded into `base`. */
interface RememberedFold<Value, Update> {
  readonly base: unknown;
  readonly values: readonly Update[];
  readonly result: Value;
}

/**
 * Folds every write into the value with a reducer: `value = reducer(value, write)`, in the
 * deterministic order of the writing tasks. The first write to an empty channel (no default, or
 * a default or reducer result of `undefined`) is stored as is. An `Overwrite` write replaces the value instead (one per superstep).
 * This is the channel of `Annotation<T>({ reducer, default })`.
 */
export class BinaryOperatorAggregate<Value = unknown, Update = Value> extends SingleValueChannel<
  Value,
  Update
> {
  readonly lc_graph_name: string = "BinaryOperatorAggregate";
  readonly operator: BinaryOperator<Value, Update>;
  readonly initialValueFactory: (() => Value) | undefined;

  constructor(operator: BinaryOperator<Value, Update>, initialValueFactory?: () => Value) {
    super();
    this.operator = operator;
    this.initialValueFactory = initialValueFactory;
    const initial = initialValueFactory?.();
    this.value = initial === undefined ? MISSING : initial;
  }

  override get clearsWhenIdle(): boolean {
    return false;
  }

  /** Whether `other` is a `BinaryOperatorAggregate` with the same reducer. */
  override equals(other: BaseChannel): boolean {
    if (other === this) return true;
    if ((other as { lc_graph_name?: unknown } | null)?.lc_graph_name !== "BinaryOperatorAggregate")
      return false;
    return (other as BinaryOperatorAggregate<Value, Update>).operator === this.operator;
  }

  /** See {@link rememberUpdate}. */
  private remembered: RememberedFold<Value, Update> | undefined;

  /**
   * @internal A reader that promises not to modify what it reads (the agent's routers, which read
   * the state with their node's writes applied) computed `updated` = a copy of this channel after
   * `update(values)`. With a pure reducer, the step's own `update` with the same writes on the same
   * value takes that result instead of folding the history again (a copy of a long message list).
   */
  rememberUpdate(values: readonly Update[], updated: BinaryOperatorAggregate<Value, Update>): void {
    if ((this.operator as unknown as Record<symbol, unknown>)[PURE_REDUCER] !== true) return;
    this.remembered = { base: this.value, values, result: updated.value as Value };
  }

  /**
   * @internal Gives the message objects a finished task wrote to a channel whose reducer is
   * marked as stamping ids (the messages reducer) the id that reducer would give them, before
   * the task's `updates` chunk is streamed. In LangGraph.js the reducer does it in place when the
   * step's writes are applied, which happens before a consumer reads the chunk, so a streamed
   * message (a `ToolMessage`, say) always shows its id; this engine streams a chunk as soon as
   * its task finishes, so it stamps the ids first. Writes in an `Overwrite` bypass the reducer
   * and are left alone.
   */
  static stampMessageIds(
    channels: Readonly<Record<string, BaseChannel>>,
    writes: readonly (readonly [string, unknown])[],
  ): void {
    let stamping = stampingChannelsOf.get(channels);
    if (stamping === undefined) {
      let found: Set<string> | null = null;
      for (const [name, channel] of Object.entries(channels)) {
        const operator = (channel as Partial<BinaryOperatorAggregate>).operator;
        if (channel.lc_graph_name !== "BinaryOperatorAggregate" || operator === undefined) continue;
        if ((operator as unknown as Record<symbol, unknown>)[STAMPS_MESSAGE_IDS] !== true) continue;
        found ??= new Set();
        found.add(name);
      }
      stamping = found;
      stampingChannelsOf.set(channels, stamping);
    }
    if (stamping === null) return;
    for (const [name, value] of writes) {
      if (stamping.has(name)) stampMessageIds(value, false);
    }
  }

  fromCheckpoint(snapshot?: Value): this {
    const channel = new BinaryOperatorAggregate(this.operator, this.initialValueFactory) as this;
    if (snapshot !== undefined) channel.value = snapshot;
    return channel;
  }

  update(values: Update[]): boolean {
    const n = values.length;
    if (n === 0) return false;
    const remembered = this.remembered;
    if (remembered !== undefined) {
      this.remembered = undefined;
      if (remembered.base === this.value && sameItems(remembered.values, values)) {
        this.value = remembered.result === undefined ? MISSING : remembered.result;
        return true;
      }
    }
    let start = 0;
    if (this.value === MISSING) {
      const first = values[0];
      const overwrite = unwrapOverwrite(first);
      this.value = (overwrite === undefined ? first : overwrite.value) as Value;
      start = 1;
    }
    let overwritten = false;
    for (let i = start; i < n; i++) {
      const incoming = values[i] as Update;
      const overwrite = unwrapOverwrite(incoming);
      if (overwrite !== undefined) {
        if (overwritten) {
          throw new InvalidUpdateError(
            "Can receive only one Overwrite value per step. Two tasks wrote `new Overwrite(...)` to this key in the same superstep; let one of them write it.",
          );
        }
        this.value = overwrite.value as Value;
        overwritten = true;
      } else if (!overwritten && this.value !== undefined) {
        this.value = this.operator(this.value as Value, incoming);
      }
    }
    // an undefined value is no value, as in LangGraph.js: the key reads as absent and the next
    // write starts the channel again
    if (this.value === undefined) this.value = MISSING;
    return true;
  }
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
