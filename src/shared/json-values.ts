// Checks of JSON values that both schema validators (tool arguments, structured output) make.

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

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A `YYYY-MM-DD` date that exists (JSON Schema's `date` format): `2024-02-29` is, `2023-02-29` is not. */
export function isCalendarDate(text: string): boolean {
  const match = CALENDAR_DATE.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  return day >= 1 && day <= days;
}
