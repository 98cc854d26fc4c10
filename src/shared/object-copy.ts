/**
 * Shallow copies of plain objects (configs, runtimes, metadata) that get more properties
 * afterwards, built so that V8 keeps sharing their hidden classes.
 *
 * In Node 20's V8 a spread copy (`{ ...source }`) gets a hidden class outside the transitions
 * other objects share: a property added to it afterwards, in the same literal (`{ ...a, b }`,
 * `{ ...a, ...c }`) or assigned later, builds a new hidden class for that one object, about
 * 0.5–1.2 KB each, and every later read of such objects goes megamorphic. `Object.assign` onto a
 * fresh `{}` builds the same copy along the shared transitions, for about 60 bytes (see "Cold
 * runs" in bench/README.md). A plain spread that nothing is added to is fine as it is.
 */

/**
 * `{ ...source }` (its own enumerable properties, `undefined` and `null` giving `{}`), for a copy
 * that properties are added to afterwards.
 *
 * @example
 * ```ts
 * const runtime = copyOf(config);
 * runtime.state = state; // shares its hidden class with every other runtime built this way
 * ```
 */
export function copyOf<T extends object>(source: T | undefined | null): T {
  if (source === undefined || source === null) return {} as T;
  // `Object.assign` would set an own "__proto__" key (parsed JSON can hold one) through the
  // prototype accessor instead of copying it: such a source is spread
  return Object.hasOwn(source, "__proto__") ? { ...source } : Object.assign({}, source);
}

/**
 * `{ ...source, [key]: value }`, built as {@link copyOf} builds a copy (the one-key extension the
 * run, its events and its snapshots make of configs and metadata).
 *
 * @example
 * ```ts
 * const meta = copyWith(config.metadata, "thread_id", threadId);
 * ```
 */
export function copyWith<T extends object, K extends string, V>(
  source: T | undefined | null,
  key: K,
  value: V,
): T & Record<K, V> {
  const out = copyOf(source) as T & Record<K, V>;
  setOwn(out, key, value);
  return out;
}

/** `{ ...a, ...b }` (and `c`'s after them, when given), built as {@link copyOf} builds a copy. */
export function mergeOf<A extends object, B extends object, C extends object = object>(
  a: A | undefined | null,
  b: B | undefined | null,
  c?: C | undefined | null,
): A & B & C {
  const out = copyOf(a) as A & B & C;
  mergeInto(out, b);
  mergeInto(out, c);
  return out;
}

/**
 * `target[key] = value`, except that a key named "__proto__" (parsed JSON can hold one) becomes an
 * own property, as a spread or an object literal would make it, instead of setting the prototype.
 */
export function setOwn(target: object, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    (target as Record<string, unknown>)[key] = value;
  }
}

function mergeInto(target: object, source: object | undefined | null): void {
  if (source === undefined || source === null) return;
  if (!Object.hasOwn(source, "__proto__")) {
    Object.assign(target, source);
    return;
  }
  // as a spread copies: own enumerable properties, symbols included, by value
  for (const key of Reflect.ownKeys(source)) {
    if (!Object.prototype.propertyIsEnumerable.call(source, key)) continue;
    const value = (source as Record<PropertyKey, unknown>)[key];
    if (typeof key === "string") setOwn(target, key, value);
    else (target as Record<symbol, unknown>)[key] = value;
  }
}
