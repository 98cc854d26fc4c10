/**
 * JSON Schema's `multipleOf` on numbers' decimal forms, so that `0.3` is a multiple of `0.1`
 * (in binary floating point `0.3 % 0.1` is not 0). Used by both schema validators (tool
 * arguments and structured output).
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
