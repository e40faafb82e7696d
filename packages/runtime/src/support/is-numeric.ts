import { isJsonNumber } from './is-json-number.js';
import type { NumericValue } from './types.js';

export function isNumeric(value: unknown): value is NumericValue {
  return typeof value === "number" ? Number.isFinite(value) : typeof value === "bigint" || isJsonNumber(value);
}
