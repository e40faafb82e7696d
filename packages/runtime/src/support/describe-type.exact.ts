import { isPlainObject } from './is-plain-object.js';
import { isJsonNumber } from './is-json-number.js';
import { decimalOf } from './decimal-of.js';

/** How a message names what it found instead. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : Number.isFinite(value) ? "number" : String(value);
  if (typeof value === "bigint") return "integer";
  if (isJsonNumber(value)) return decimalOf(value)[2] >= 0 ? "integer" : "number";
  if (typeof value === "object") return isPlainObject(value) ? "object" : "a non-JSON object";
  return typeof value;
}
