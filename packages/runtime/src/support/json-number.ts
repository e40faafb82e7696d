import { jsonNumberBrand } from './json-number-brand.js';
import type { JsonNumber } from './types.js';

/** A JsonNumber for a literal of this module, branded as the runtime's are. */
export function jsonNumber(decimal: string): JsonNumber {
  return Object.freeze({ decimal, toString: () => decimal, [jsonNumberBrand]: true });
}
