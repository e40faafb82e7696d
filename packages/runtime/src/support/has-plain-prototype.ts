/** The prototype of a JSON object, for an object already known not to be an array: Object.prototype, or none (a null-prototype object); a class instance has another. */
export function hasPlainPrototype(value: unknown): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
