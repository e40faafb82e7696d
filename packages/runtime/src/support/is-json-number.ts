import { jsonNumberBrand } from './json-number-brand.js';
import { isJsonNumberText } from './is-json-number-text.js';
import type { JsonNumber } from './types.js';

/**
 * A number the runtime's lossless parser kept exactly (neither a double nor a bigint holds it): branded,
 * frozen, its decimal an own data property holding JSON number text. Any object that passes is an
 * immutable number whose value is its decimal, which is all the checks read.
 */
export function isJsonNumber(value: unknown): value is JsonNumber {
  if (typeof value !== "object" || value === null || !Object.isFrozen(value)) return false;
  if ((value as { [jsonNumberBrand]?: unknown })[jsonNumberBrand] !== true) return false;
  const decimal = Object.getOwnPropertyDescriptor(value, "decimal");
  return decimal !== undefined && "value" in decimal && typeof decimal.value === "string" && isJsonNumberText(decimal.value);
}
