import type { NumericValue } from './types.js';

/** [negative, digits, exponent]: the exact value ±digits × 10^exponent, digits without leading or trailing zeros; zero is [false, "", 0n]. Exponents are bigints, so any size compares exactly. */
export type Decimal = readonly [boolean, string, bigint];

/** The exact decimal of a number as JSON.stringify writes it, of a bigint, of a JsonNumber, or of JSON number text. */
export function decimalOf(value: NumericValue | string): Decimal {
  const text = typeof value === "object" ? value.decimal : String(value);
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  let digits = "";
  let fraction = 0;
  let point = false;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) point = true;
    else if (c >= 48 && c <= 57) {
      if (point) fraction++;
      if (digits !== "" || c !== 48) digits += text[i];
    } else break;
  }
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  if (end === 0) return [false, "", BigInt(0)];
  const written = i < text.length ? BigInt(text.slice(i + 1)) : BigInt(0);
  return [text.charCodeAt(0) === 45, digits.slice(0, end), written + BigInt(digits.length - end - fraction)];
}
