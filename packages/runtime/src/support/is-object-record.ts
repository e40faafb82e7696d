/** An object that is not an array: what a JSON object is before its prototype is tested (`isPlainObject` tests both). */
export function isObjectRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
