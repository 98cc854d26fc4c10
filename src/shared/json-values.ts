// Comparisons of JSON values that both schema validators (tool arguments, structured output) make.

/**
 * JSON Schema's `multipleOf` on numbers' decimal forms, so that `0.3` is a multiple of `0.1`
 * (in binary floating point `0.3 % 0.1` is not 0).
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  const [a, aExp] = decimal(value);
  const [b, bExp] = decimal(divisor);
  const shift = aExp - bExp;
  return shift >= 0 ? (a * 10n ** BigInt(shift)) % b === 0n : a % (b * 10n ** BigInt(-shift)) === 0n;
}

/** A finite number as an integer and a power of ten: `1.5` is `[15n, -1]`. */
function decimal(value: number): [bigint, number] {
  const [mantissa = "0", exponent = "0"] = value.toExponential().split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  return [BigInt(whole + fraction), Number(exponent) - fraction.length];
}

/**
 * JSON equality (`const`, `enum`, `uniqueItems`): primitives by `===`, arrays item by item,
 * objects key by key in any order.
 */
export function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameJsonValue(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => Object.hasOwn(right, key) && sameJsonValue(left[key], right[key]))
  );
}
