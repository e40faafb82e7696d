/**
 * The few functions a generated module may need, copied into it (only those it uses) so that it
 * runs with no import at all. They are written once here, in TypeScript; a few differ in exact
 * mode, where a number may also arrive as a bigint or a JsonNumber.
 */
export type HelperName = 'isPlainObject' | 'ownValue' | 'absenceNote' | 'codePointLength' | 'isJsonValue' | 'describeType' | 'jsonEqual' | 'jsonNumberBrand' | 'isJsonNumber' | 'isJsonNumberText' | 'jsonNumber' | 'isNumeric' | 'decimalOf' | 'decimalKey' | 'compareDecimal';

interface Helper {
  uses(exact: boolean): readonly HelperName[];
  source(exact: boolean): string;
}

/** In the order they are written into a module. */
const helperSources: Readonly<Record<HelperName, Helper>> = {
  isPlainObject: {
    uses: () => [],
    source: () => `/** A JSON object: an object literal or a null-prototype object (not an array made prototype-less); a class instance has another prototype. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || (prototype === null && !Array.isArray(value));
}`,
  },
  ownValue: {
    uses: () => [],
    source: () => `/** A property as JSON sees it: own and enumerable. A non-enumerable or inherited one reads as absent. */
function ownValue(value: Record<string, unknown>, name: string): unknown {
  return Object.prototype.propertyIsEnumerable.call(value, name) ? value[name] : undefined;
}`,
  },
  absenceNote: {
    uses: () => [],
    source: () => `/** Why a required property that a plain read would find is still missing; empty when nothing has the name. */
function absenceNote(value: Record<string, unknown>, name: string): string {
  if (Object.prototype.propertyIsEnumerable.call(value, name)) return " (its value is undefined, which is not JSON)";
  if (Object.hasOwn(value, name)) return " (the object's own property is not enumerable, so it is not part of the value as JSON)";
  if (Object.prototype.propertyIsEnumerable.call(Object.prototype, name)) return " (only Object.prototype has it; an inherited property is not part of the value as JSON)";
  return "";
}`,
  },
  codePointLength: {
    uses: () => [],
    source: () => `/** JSON Schema counts string length in code points; a lone surrogate counts as one. */
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
    uses: (exact) => (exact ? ['isPlainObject', 'isJsonNumber'] : ['isPlainObject']),
    source: (exact) => `/**
 * Any JSON value: what a schema without "type" accepts. The depth bound stops cycles and hostile
 * nesting without exhausting the stack.
 */
function isJsonValue(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":${exact ? '\n    case "bigint":' : ''}
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      if (value === null${exact ? ' || isJsonNumber(value)' : ''}) return true;
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
    uses: (exact) => (exact ? ['isPlainObject', 'isJsonNumber', 'decimalOf'] : ['isPlainObject']),
    source: (exact) => `/** How a message names what it found instead. */
function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : Number.isFinite(value) ? "number" : String(value);${exact ? '\n  if (typeof value === "bigint") return "integer";\n  if (isJsonNumber(value)) return decimalOf(value)[2] >= 0 ? "integer" : "number";' : ''}
  if (typeof value === "object") return isPlainObject(value) ? "object" : "a non-JSON object";
  return typeof value;
}`,
  },
  jsonEqual: {
    uses: (exact) => (exact ? ['isPlainObject', 'isNumeric', 'decimalKey'] : ['isPlainObject']),
    source: (exact) => `/** JSON equality, as "enum" needs it: deep, object key order ignored, own enumerable properties only${exact ? ', numbers by exact value' : ''}. */
function jsonEqual(value: unknown, expected: unknown): boolean {
  if (value === expected) return true;${exact ? '\n  if (isNumeric(expected)) return isNumeric(value) && decimalKey(value) === decimalKey(expected);' : ''}
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
}`,
  },
  jsonNumberBrand: {
    uses: () => [],
    source: () => `const jsonNumberBrand = Symbol.for("json-tool-contracts/JsonNumber");`,
  },
  isJsonNumber: {
    uses: () => ['jsonNumberBrand', 'isJsonNumberText'],
    source: () => `/**
 * A number the runtime's lossless parser kept exactly (neither a double nor a bigint holds it): branded,
 * frozen, its decimal an own data property holding JSON number text. Any object that passes is an
 * immutable number whose value is its decimal, which is all the checks read.
 */
function isJsonNumber(value: unknown): value is JsonNumber {
  if (typeof value !== "object" || value === null || !Object.isFrozen(value)) return false;
  if ((value as { [jsonNumberBrand]?: unknown })[jsonNumberBrand] !== true) return false;
  const decimal = Object.getOwnPropertyDescriptor(value, "decimal");
  return decimal !== undefined && "value" in decimal && typeof decimal.value === "string" && isJsonNumberText(decimal.value);
}`,
  },
  isJsonNumberText: {
    uses: () => [],
    source: () => `/** JSON number syntax, scanned without a regular expression. */
function isJsonNumberText(text: string): boolean {
  let i = 0;
  const digits = (): number => {
    const from = i;
    while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    return i - from;
  };
  if (text.charCodeAt(i) === 0x2d) i++;
  if (text.charCodeAt(i) === 0x30) i++;
  else if (digits() === 0) return false;
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    if (digits() === 0) return false;
  }
  if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
    i++;
    if (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d) i++;
    if (digits() === 0) return false;
  }
  return i === text.length;
}`,
  },
  jsonNumber: {
    uses: () => ['jsonNumberBrand'],
    source: () => `/** A JsonNumber for a literal of this module, branded as the runtime's are. */
function jsonNumber(decimal: string): JsonNumber {
  return Object.freeze({ decimal, toString: () => decimal, [jsonNumberBrand]: true });
}`,
  },
  isNumeric: {
    uses: () => ['isJsonNumber'],
    source: () => `function isNumeric(value: unknown): value is NumericValue {
  return typeof value === "number" ? Number.isFinite(value) : typeof value === "bigint" || isJsonNumber(value);
}`,
  },
  decimalOf: {
    uses: () => [],
    source: () => `/** [negative, digits, exponent]: the exact value ±digits × 10^exponent, digits without leading or trailing zeros; zero is [false, "", 0n]. Exponents are bigints, so any size compares exactly. */
type Decimal = readonly [boolean, string, bigint];

/** The exact decimal of a number as JSON.stringify writes it, of a bigint, or of a JsonNumber. */
function decimalOf(value: NumericValue): Decimal {
  const text = typeof value === "object" ? value.decimal : String(value);
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  let digits = "";
  let fraction = 0;
  let point = false;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) point = true;
    else if (c >= 48 && c <= 57) {
      if (point) fraction++;
      if (digits !== "" || c !== 48) digits += text[i];
    } else break;
  }
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  if (end === 0) return [false, "", BigInt(0)];
  const written = i < text.length ? BigInt(text.slice(i + 1)) : BigInt(0);
  return [text.charCodeAt(0) === 45, digits.slice(0, end), written + BigInt(digits.length - end - fraction)];
}`,
  },
  decimalKey: {
    uses: () => ['decimalOf'],
    source: () => `/** The same value gives the same key, whatever its representation (1, 1.0, 1n, "1.00", -0). */
function decimalKey(value: NumericValue): string {
  const [negative, digits, exponent] = decimalOf(value);
  return (negative ? "-" : "") + digits + "e" + exponent;
}`,
  },
  compareDecimal: {
    uses: () => ['decimalOf'],
    source: () => `/** Compares two exact decimals digit by digit: -1, 0 or 1. Never goes through a float. */
function compareDecimal(a: Decimal, b: Decimal): number {
  const [aNegative, aDigits, aExponent] = a;
  const [bNegative, bDigits, bExponent] = b;
  if (aDigits === "" || bDigits === "") return aDigits === bDigits ? 0 : aDigits === "" ? (bNegative ? 1 : -1) : aNegative ? -1 : 1;
  if (aNegative !== bNegative) return aNegative ? -1 : 1;
  const sign = aNegative ? -1 : 1;
  const aMagnitude = BigInt(aDigits.length) + aExponent;
  const bMagnitude = BigInt(bDigits.length) + bExponent;
  if (aMagnitude !== bMagnitude) return aMagnitude < bMagnitude ? -sign : sign;
  const length = Math.max(aDigits.length, bDigits.length);
  const aPadded = aDigits.padEnd(length, "0");
  const bPadded = bDigits.padEnd(length, "0");
  return aPadded === bPadded ? 0 : aPadded < bPadded ? -sign : sign;
}`,
  },
};

/** The sources of the named helpers and of the helpers they use, in a fixed order. */
export function helperCode(names: Iterable<HelperName>, exact: boolean): string[] {
  const needed = new Set<HelperName>();
  const add = (name: HelperName): void => {
    if (needed.has(name)) return;
    needed.add(name);
    helperSources[name].uses(exact).forEach(add);
  };
  for (const name of names) add(name);
  return (Object.keys(helperSources) as HelperName[]).filter((name) => needed.has(name)).map((name) => helperSources[name].source(exact));
}
