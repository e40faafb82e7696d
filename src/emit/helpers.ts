/**
 * The few functions a generated module may need, copied into it (only those it uses) so that
 * it runs with no import at all. They are written once here, in TypeScript.
 */
const helperSources = {
  isPlainObject: {
    uses: [],
    source: `/** A JSON object: an object literal or a null-prototype object, never an array or a class instance. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}`,
  },
  codePointLength: {
    uses: [],
    source: `/** JSON Schema counts string length in code points; a lone surrogate counts as one. */
function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}`,
  },
  isJsonValue: {
    uses: ['isPlainObject'],
    source: `/**
 * Any JSON value: what a schema without "type" accepts. The depth bound stops cycles and hostile
 * nesting without exhausting the stack.
 */
function isJsonValue(value: unknown, depth = 0): boolean {
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
        for (let i = 0; i < value.length; i++) {
          if (!isJsonValue(value[i], depth + 1)) return false;
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
}`,
  },
  describeType: {
    uses: ['isPlainObject'],
    source: `/** How a message names what it found instead. */
function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : Number.isFinite(value) ? "number" : String(value);
  if (typeof value === "object") return isPlainObject(value) ? "object" : "a non-JSON object";
  return typeof value;
}`,
  },
  jsonEqual: {
    uses: ['isPlainObject'],
    source: `/** JSON equality, as "enum" needs it: deep, object key order ignored, own properties only. */
function jsonEqual(value: unknown, expected: unknown): boolean {
  if (value === expected) return true;
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
    if (!Object.hasOwn(value, key) || !jsonEqual(value[key], (expected as Record<string, unknown>)[key])) return false;
  }
  return true;
}`,
  },
} as const;

export type HelperName = keyof typeof helperSources;

/** The sources of the named helpers and of the helpers they use, in a fixed order. */
export function helperCode(names: Iterable<HelperName>): string[] {
  const needed = new Set<HelperName>();
  const add = (name: HelperName): void => {
    if (needed.has(name)) return;
    needed.add(name);
    helperSources[name].uses.forEach(add);
  };
  for (const name of names) add(name);
  return (Object.keys(helperSources) as HelperName[]).filter((name) => needed.has(name)).map((name) => helperSources[name].source);
}
