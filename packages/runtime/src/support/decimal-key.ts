import { decimalOf } from './decimal-of.js';
import type { NumericValue } from './types.js';

/** The same value gives the same key, whatever its representation (1, 1.0, 1n, "1.00", -0). */
export function decimalKey(value: NumericValue): string {
  const [negative, digits, exponent] = decimalOf(value);
  return (negative ? "-" : "") + digits + "e" + exponent;
}
