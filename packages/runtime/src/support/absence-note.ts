/** Why a required property that a plain read would find is still missing; empty when nothing has the name. */
export function absenceNote(value: Record<string, unknown>, name: string): string {
  // Nowhere on the object or its prototype, which is the usual case: one lookup instead of three.
  if (!(name in value)) return "";
  if (Object.prototype.propertyIsEnumerable.call(value, name)) return " (its value is undefined, which is not JSON)";
  if (Object.hasOwn(value, name)) return " (the object's own property is not enumerable, so it is not part of the value as JSON)";
  if (Object.prototype.propertyIsEnumerable.call(Object.prototype, name)) return " (only Object.prototype has it; an inherited property is not part of the value as JSON)";
  return "";
}
