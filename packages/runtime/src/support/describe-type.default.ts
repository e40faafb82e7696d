import { isPlainObject } from './is-plain-object.js';

/** How a message names what it found instead. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : Number.isFinite(value) ? "number" : String(value);
  if (typeof value === "object") return isPlainObject(value) ? "object" : "a non-JSON object";
  return typeof value;
}
