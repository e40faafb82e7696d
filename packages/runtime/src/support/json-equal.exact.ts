import { isPlainObject } from './is-plain-object.js';
import { isNumeric } from './is-numeric.js';
import { decimalKey } from './decimal-key.js';

/** JSON equality, as "enum" needs it: deep, object key order ignored, own enumerable properties only, numbers by exact value. */
export function jsonEqual(value: unknown, expected: unknown): boolean {
  if (value === expected) return true;
  if (isNumeric(expected)) return isNumeric(value) && decimalKey(value) === decimalKey(expected);
  if (typeof expected !== "object" || expected === null || typeof value !== "object" || value === null) return false;
  if (Array.isArray(expected)) {
    if (!Array.isArray(value) || value.length !== expected.length) return false;
    for (let i = 0; i < expected.length; i++) {
      if (!jsonEqual(value[i], expected[i])) return false;
    }
    return true;
  }
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(expected);
  if (Object.keys(value).length !== keys.length) return false;
  for (const key of keys) {
    if (!Object.prototype.propertyIsEnumerable.call(value, key) || !jsonEqual(value[key], (expected as Record<string, unknown>)[key])) return false;
  }
  return true;
}
