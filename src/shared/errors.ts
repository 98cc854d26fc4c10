/**
 * The error family of agentgraph.
 *
 * Every error the library throws on purpose extends {@link AgentGraphError}. Each carries a
 * stable `code` (the same strings LangGraph.js puts in `lc_error_code`, so code that switches
 * on them keeps working) and says how to fix the problem in its message.
 *
 * `instanceof` works across package copies and realms: each class answers
 * `Symbol.hasInstance` from a `Symbol.for` brand that lists the class names of the instance,
 * so two copies of agentgraph in one process still recognise each other's errors.
 *
 * @example
 * ```ts
 * try {
 *   await graph.invoke(input, { recursionLimit: 5 });
 * } catch (e) {
 *   if (e instanceof GraphRecursionError) console.log(e.code); // "GRAPH_RECURSION_LIMIT"
 * }
 * ```
 */
const BRAND: unique symbol = Symbol.for("agentgraph.error.brand") as never;

type Branded = { [BRAND]?: readonly string[] };

/** Checks a value against an error class by brand name, whatever copy of the library made it. */
export function hasErrorBrand(value: unknown, name: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  const names = (value as Branded)[BRAND];
  return Array.isArray(names) && names.includes(name);
}

export interface AgentGraphErrorOptions {
  cause?: unknown;
  /** Stable machine-readable code; defaults to the class name in SCREAMING_SNAKE_CASE. */
  code?: string;
  /**
   * The code LangGraph.js gives the error where it raises it (its `lc_error_code` field): an
   * error of a LangGraph.js class holds it as `lc_error_code`, and `undefined` when none is given,
   * as there. It is also the error's {@link AgentGraphError.code} unless `code` says otherwise.
   */
  lc_error_code?: string | undefined;
}

/** `lc_error_code` of every error: {@link AgentGraphError.code} under LangGraph.js's name. */
const LC_ERROR_CODE: PropertyDescriptor = {
  get(this: { code: string }) {
    return this.code;
  },
  set(this: { code: string }, value: string) {
    this.code = value;
  },
  enumerable: true,
  configurable: true,
};

/** Classes whose instances keep `Error`'s inherited `name` (see {@link leaveErrorNameInherited}). */
const UNNAMED_CLASSES = new WeakSet<object>();

/**
 * The class of `ctor`'s chain that names its errors: the nearest one declaring a `brandName` of
 * its own (a user's subclass declares none and takes its base's).
 */
function namingClass(ctor: typeof AgentGraphError): typeof AgentGraphError {
  let named = ctor;
  while (!Object.hasOwn(named, "brandName")) named = Object.getPrototypeOf(named) as typeof AgentGraphError;
  return named;
}

export class AgentGraphError extends Error {
  /** Name used for cross-realm `instanceof`; subclasses override it. */
  static readonly brandName: string = "AgentGraphError";

  /** Stable machine-readable code, e.g. `"GRAPH_RECURSION_LIMIT"` (not enumerable). */
  declare readonly code: string;

  /**
   * LangGraph.js spelling of {@link code}, kept for code ported from it: an own enumerable
   * property, the error's first key (visible to `Object.keys`, `toEqual` and JSON), as there.
   * On the errors of LangGraph.js's classes (see {@link lcErrorCodeAsGiven}) it holds the code
   * given where the error is raised, `undefined` when none is, as LangGraph.js's field does.
   */
  declare readonly lc_error_code: string | undefined;

  /**
   * True for the classes LangGraph.js derives from its `BaseLangGraphError`: their
   * `lc_error_code` holds only the `lc_error_code` option (LangGraph.js leaves it `undefined`
   * on, say, the `GraphInterrupt` that `interrupt()` throws); other classes show their `code`.
   */
  static readonly lcErrorCodeAsGiven: boolean = false;

  constructor(message = "", options: AgentGraphErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const ctor = new.target as typeof AgentGraphError;
    const unnamed = UNNAMED_CLASSES.has(namingClass(ctor));
    Object.defineProperty(
      this,
      "lc_error_code",
      ctor.lcErrorCodeAsGiven || unnamed
        ? { value: options.lc_error_code, writable: true, enumerable: true, configurable: true }
        : LC_ERROR_CODE,
    );
    if (!unnamed) this.name = ctor.brandName;
    Object.defineProperty(this, "code", {
      value: options.code ?? options.lc_error_code ?? ctor.brandName,
      writable: true,
      enumerable: false,
      configurable: true,
    });
    const names: string[] = [];
    for (let c: unknown = ctor; typeof c === "function" && "brandName" in c; c = Object.getPrototypeOf(c)) {
      const n = (c as typeof AgentGraphError).brandName;
      if (!names.includes(n)) names.push(n);
      if (c === AgentGraphError) break;
    }
    Object.defineProperty(this, BRAND, { value: names, enumerable: false });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // `this` is the class on the right of `instanceof` (a subclass, usually): that is the point.
    // biome-ignore lint/complexity/noThisInStatic: see above
    return hasErrorBrand(value, this.brandName);
  }
}

/**
 * Makes the errors of `cls` keep `Error`'s inherited `name` ("Error"), and their `lc_error_code`
 * the code given where they are raised, as LangGraph.js's `BaseLangGraphError` and
 * `GraphBubbleUp` do (they do not name their instances; their subclasses do). Subclasses that
 * declare no `brandName` of their own (a user's `class MyError extends BaseLangGraphError {}`)
 * keep it too; those that declare one are named by it.
 */
export function leaveErrorNameInherited(cls: typeof AgentGraphError): void {
  UNNAMED_CLASSES.add(cls);
}

// exported as LangGraph.js's `BaseLangGraphError`
leaveErrorNameInherited(AgentGraphError);

/**
 * Raised for a value the caller passed that cannot be used as given (bad options, bad input).
 * The message says what was wrong and how to fix it.
 */
export class InvalidArgumentError extends AgentGraphError {
  static override readonly brandName: string = "InvalidArgumentError";
}

/** Raised when an operation is cancelled through an `AbortSignal`. */
export class AbortError extends AgentGraphError {
  static override readonly brandName: string = "AbortError";
  constructor(message = "The operation was aborted.", options: AgentGraphErrorOptions = {}) {
    super(message, options);
  }
}

/**
 * The message of an error for an aborted call, as LangChain.js gives it (it throws the signal's
 * reason): the reason's message when it is an `Error` (`This operation was aborted` for a plain
 * `abort()`, `The operation was aborted due to timeout` for `AbortSignal.timeout`), the reason
 * itself when it is a string, else `Aborted`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * controller.abort();
 * abortReasonMessage(controller.signal.reason); // "This operation was aborted"
 * ```
 */
export function abortReasonMessage(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  if (typeof reason === "string") return reason;
  return "Aborted";
}

/** True for errors that mean "cancelled": our {@link AbortError} and the platform's. */
export function isAbortError(error: unknown): boolean {
  if (error instanceof AbortError) return true;
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}
