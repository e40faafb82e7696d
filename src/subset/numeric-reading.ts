import { parseDecimal, type ParsedDecimal } from '@json-tool-contracts/runtime/internal';

/** How a numeric literal is read: exactly, or rounded to the nearest f64 as the default mode does. */
export type NumericReading = (lexeme: string) => ParsedDecimal;

export const exactReading: NumericReading = (lexeme) => parseDecimal(lexeme)!;
/** Shortest round-trip digits of the f64: ordered exactly as the doubles are. */
export const f64Reading: NumericReading = (lexeme) => {
  const f64 = Number(lexeme);
  // Outside the f64 range (refused as JTC117 before it matters) the value is kept exact.
  return Number.isFinite(f64) ? parseDecimal(String(f64))! : parseDecimal(lexeme)!;
};

export function numericReading(exactNumbers: boolean): NumericReading {
  return exactNumbers ? exactReading : f64Reading;
}
