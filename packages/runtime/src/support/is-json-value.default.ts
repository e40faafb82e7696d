import { isPlainObject } from './is-plain-object.js';

/**
 * Any JSON value: what a schema without "type" accepts. The depth bound stops cycles and hostile
 * nesting without exhausting the stack.
 */
export function isJsonValue(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      if (value === null) return true;
      if (depth >= 256) return false;
      if (Array.isArray(value)) {
        // A hole is not JSON; reading it would find whatever a prototype holds at that index.
        for (let i = 0; i < value.length; i++) {
          if (!Object.hasOwn(value, i) || !isJsonValue(value[i], depth + 1)) return false;
        }
        return true;
      }
      if (!isPlainObject(value)) return false;
      for (const key in value) {
        if (Object.hasOwn(value, key) && !isJsonValue(value[key], depth + 1)) return false;
      }
      return true;
    default:
      return false;
  }
}
