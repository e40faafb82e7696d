/** A property as JSON sees it: own and enumerable. A non-enumerable or inherited one reads as absent. */
export function ownValue(value: Record<string, unknown>, name: string): unknown {
  return Object.prototype.propertyIsEnumerable.call(value, name) ? value[name] : undefined;
}
