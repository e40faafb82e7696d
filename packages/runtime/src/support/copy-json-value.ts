/** A deep copy: fresh objects and arrays (own keys such as "__proto__" kept as keys), shared immutable leaves. */
export function copyJsonValue<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJsonValue) as T;
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, key, { value: copyJsonValue(item), enumerable: true, writable: true, configurable: true });
  return copy as T;
}
