/** A JSON object: an object literal or a null-prototype object (not an array made prototype-less); a class instance has another prototype. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || (prototype === null && !Array.isArray(value));
}
