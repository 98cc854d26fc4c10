import { InvalidArgumentError } from "../../../shared/index.js";
import { CORE_SERIALIZABLE_TYPES } from "./core-types.js";
import { RESERVED_TAGS } from "./tags.js";

/**
 * A class (or any kind of object) the serializer should round-trip. `test` picks the values
 * (it is asked only about objects that are not plain objects, arrays or built-ins the
 * serializer already handles), `encode` turns one into JSON-able data — which may itself hold
 * Dates, Maps, other registered values… — and `decode` rebuilds it from that data. The `tag`
 * is written next to the data, so it must stay stable once data has been stored.
 *
 * @example
 * ```ts
 * class Money {
 *   constructor(readonly cents: bigint, readonly currency: string) {}
 * }
 * const moneyType: SerializableType<Money, [bigint, string]> = {
 *   tag: "myapp.Money",
 *   test: (value) => value instanceof Money,
 *   encode: (money) => [money.cents, money.currency],
 *   decode: ([cents, currency]) => new Money(cents, currency),
 * };
 * ```
 */
export interface SerializableType<T = unknown, Json = unknown> {
  /** The name written in stored data. Not one of the serializer's own short tags. */
  readonly tag: string;
  /** True for the values of this type. */
  test(value: object): boolean;
  /** The data to store for `value`. */
  encode(value: T): Json;
  /** Rebuilds a value from the data `encode` returned (after its own tags were revived). */
  decode(json: Json): T;
}

type AnyType = SerializableType<never, unknown> & { decode(json: unknown): unknown };

/** Registered types in the order `test` is asked; the engine's own types first. */
const types: AnyType[] = [...(CORE_SERIALIZABLE_TYPES as readonly AnyType[])];
const byTag = new Map<string, AnyType>(types.map((type) => [type.tag, type]));

/**
 * Teaches the serializer (and so every saver, store and cache) to round-trip a type: values for
 * which `test` answers true are stored as `encode(value)` under `tag` and rebuilt with `decode`.
 * Without registration, a class instance is stored as a plain object of its own enumerable
 * properties (after `toJSON()` when it has one) and comes back as a plain object: stored data
 * never names a constructor to call. Returns a function that removes the registration.
 *
 * @example
 * ```ts
 * const unregister = registerSerializable({
 *   tag: "myapp.Money",
 *   test: (value) => value instanceof Money,
 *   encode: (money: Money) => [money.cents, money.currency],
 *   decode: ([cents, currency]: [bigint, string]) => new Money(cents, currency),
 * });
 * defaultSerializer.decode(defaultSerializer.encode(new Money(5n, "EUR"))); // a Money
 * ```
 */
export function registerSerializable<T, Json>(type: SerializableType<T, Json>): () => void {
  const { tag } = type;
  if (typeof tag !== "string" || tag === "") {
    throw new InvalidArgumentError(
      `registerSerializable() needs a non-empty string "tag", got ${JSON.stringify(tag)}. Pick a stable name such as "myapp.ClassName".`,
    );
  }
  if (RESERVED_TAGS.has(tag)) {
    throw new InvalidArgumentError(
      `registerSerializable(): the tag "${tag}" is reserved by the serializer. Use a namespaced tag such as "myapp.${tag}".`,
    );
  }
  if (
    typeof type.test !== "function" ||
    typeof type.encode !== "function" ||
    typeof type.decode !== "function"
  ) {
    throw new InvalidArgumentError(
      `registerSerializable({ tag: "${tag}" }) needs the functions test(value), encode(value) and decode(json).`,
    );
  }
  const entry = type as unknown as AnyType;
  const existing = byTag.get(tag);
  if (existing === entry) return () => unregister(entry);
  if (existing !== undefined) {
    throw new InvalidArgumentError(
      `registerSerializable(): the tag "${tag}" is already registered by another type. Tags must be unique; unregister the other one first or choose another tag.`,
    );
  }
  types.push(entry);
  byTag.set(tag, entry);
  return () => unregister(entry);
}

function unregister(entry: AnyType): void {
  if (byTag.get(entry.tag) !== entry) return;
  byTag.delete(entry.tag);
  const index = types.indexOf(entry);
  if (index >= 0) types.splice(index, 1);
}

/** The registered type whose `test` accepts `value`, if any (first registered wins). */
export function findSerializableType(value: object): AnyType | undefined {
  for (let i = 0; i < types.length; i++) {
    const type = types[i] as AnyType;
    if (type.test(value)) return type;
  }
  return undefined;
}

/** The registered type with this tag, if any. */
export function serializableTypeForTag(tag: string): AnyType | undefined {
  return byTag.get(tag);
}
