import type { Decimal } from './decimal-of.js';

/** Compares two exact decimals digit by digit: -1, 0 or 1. Never goes through a float. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const [aNegative, aDigits, aExponent] = a;
  const [bNegative, bDigits, bExponent] = b;
  if (aDigits === "" || bDigits === "") return aDigits === bDigits ? 0 : aDigits === "" ? (bNegative ? 1 : -1) : aNegative ? -1 : 1;
  if (aNegative !== bNegative) return aNegative ? -1 : 1;
  const sign = aNegative ? -1 : 1;
  const aMagnitude = BigInt(aDigits.length) + aExponent;
  const bMagnitude = BigInt(bDigits.length) + bExponent;
  if (aMagnitude !== bMagnitude) return aMagnitude < bMagnitude ? -sign : sign;
  const length = Math.max(aDigits.length, bDigits.length);
  const aPadded = aDigits.padEnd(length, "0");
  const bPadded = bDigits.padEnd(length, "0");
  return aPadded === bPadded ? 0 : aPadded < bPadded ? -sign : sign;
}
