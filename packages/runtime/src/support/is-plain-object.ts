import { hasPlainPrototype } from './has-plain-prototype.js';
import { isObjectRecord } from './is-object-record.js';

/** A JSON object: an object literal or a null-prototype object. An array is never one, whatever its prototype; a class instance has another prototype. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return isObjectRecord(value) && hasPlainPrototype(value);
}
