import { compareDecimal } from './compare-decimal.js';
import { decimalOf } from './decimal-of.js';
import { isJsonNumber } from './is-json-number.js';
import type { JsonNumber, NumericValue } from './types.js';

/**
 * A contract's schema as a host takes it as a JS value: valid JSON Schema, every number a double.
 * An exact-mode schema holds a JsonNumber (or a bigint) wherever a bound, an enum member or an
 * annotation has no double; each becomes a double chosen so that the schema shown is never looser
 * than the contract the runtime still enforces digit by digit, for what the host does with it.
 * `input`, a schema the host fills in (a model's arguments): a maximum becomes the largest double
 * whose decimal, as the runtime reads a JS number, is at most the bound, a minimum the smallest at
 * least it (a bound no double can meet, beyond ±1.8e308, becomes `exclusiveMaximum` /
 * `exclusiveMinimum` at the largest double, which nothing passes), and an enum member no double
 * equals is left out: whatever passes the schema shown passes the contract. `output`, a schema the
 * host checks what it receives against (an MCP client, `structuredContent` parsed to doubles):
 * every number becomes its nearest double, the value every output at that number arrives as, so
 * no output the contract lets through is refused. In both, `default` and each of `examples`
 * holding a number no double holds exactly are left out rather than shown as another value. The
 * walk follows the subset's structure (`properties`, `items`); the value of any other keyword is
 * copied with each number its nearest double.
 */
export function hostJsonSchema(schema: Readonly<Record<string, unknown>>, role: "input" | "output"): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === "properties" && isSchemaRecord(value)) {
      const properties: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(value)) defineShown(properties, name, isSchemaRecord(child) ? hostJsonSchema(child, role) : nearestDoubles(child));
      defineShown(shown, keyword, properties);
    } else if (keyword === "items" && isSchemaRecord(value)) {
      defineShown(shown, keyword, hostJsonSchema(value, role));
    } else if ((keyword === "minimum" || keyword === "maximum") && isExactNumeric(value)) {
      const [shownKeyword, bound] = boundForHosts(keyword, value, role);
      defineShown(shown, shownKeyword, bound);
    } else if (keyword === "enum" && Array.isArray(value)) {
      defineShown(shown, keyword, enumForHosts(value, role));
    } else if (keyword === "default") {
      defineShown(shown, keyword, exactDoubles(value));
    } else if (keyword === "examples" && Array.isArray(value)) {
      const examples = value.map(exactDoubles).filter((example) => example !== undefined);
      if (examples.length > 0 || value.length === 0) defineShown(shown, keyword, examples);
    } else {
      defineShown(shown, keyword, nearestDoubles(value));
    }
  }
  return shown;
}

/** The keyword and double a bound is shown as; see hostJsonSchema. */
function boundForHosts(keyword: "minimum" | "maximum", bound: NumericValue, role: "input" | "output"): [string, number] {
  if (role === "output") return [keyword, finiteDouble(nearestDouble(bound))];
  const step = keyword === "maximum" ? -1 : 1;
  const exact = decimalOf(bound);
  // The nearest double is at most one step off: step back while its decimal breaks the bound.
  let double = finiteDouble(nearestDouble(bound));
  while (compareDecimal(decimalOf(double), exact) * step < 0) {
    if (double === step * Number.MAX_VALUE) return [keyword === "maximum" ? "exclusiveMaximum" : "exclusiveMinimum", double];
    double = adjacentDouble(double, step);
  }
  return [keyword, double === 0 ? 0 : double];
}

/** Input: the members some double equals, as that double. Output: every member as its nearest doubles (rounding may make two one). */
function enumForHosts(members: readonly unknown[], role: "input" | "output"): unknown[] {
  const shown: unknown[] = [];
  const seen = new Set<string>();
  for (const member of members) {
    const double = role === "input" ? exactDoubles(member) : nearestDoubles(member);
    if (double === undefined) continue;
    const text = JSON.stringify(double);
    if (seen.has(text)) continue;
    seen.add(text);
    shown.push(double);
  }
  return shown;
}

/** The value with each number a double, or undefined when one of them has no double that equals it. */
function exactDoubles(value: unknown): unknown {
  let exact = true;
  const doubles = withDoubles(value, (number) => {
    const double = nearestDouble(number);
    exact = exact && Number.isFinite(double) && compareDecimal(decimalOf(double), decimalOf(number)) === 0;
    return double;
  });
  return exact ? doubles : undefined;
}

/** The value with each number its nearest double, as JSON.parse reads its digits; undefined when one lies beyond the range of doubles. */
function nearestDoubles(value: unknown): unknown {
  let fits = true;
  const doubles = withDoubles(value, (number) => {
    const double = nearestDouble(number);
    fits = fits && Number.isFinite(double);
    return double;
  });
  return fits ? doubles : undefined;
}

function withDoubles(value: unknown, toDouble: (number: NumericValue) => number): unknown {
  if (isExactNumeric(value)) return toDouble(value);
  if (Array.isArray(value)) return value.map((item) => withDoubles(item, toDouble));
  if (!isSchemaRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) defineShown(copy, key, withDoubles(item, toDouble));
  return copy;
}

/** A bigint or a JsonNumber: a number a double may not hold (a JS number is one already). */
function isExactNumeric(value: unknown): value is bigint | JsonNumber {
  return typeof value === "bigint" || isJsonNumber(value);
}

function nearestDouble(value: NumericValue): number {
  return typeof value === "object" ? Number(value.decimal) : Number(value);
}

/** Beyond the range of doubles, the largest one of that sign. */
function finiteDouble(double: number): number {
  return Number.isFinite(double) ? double : Math.sign(double) * Number.MAX_VALUE;
}

/** The next double up (`step` 1) or down (-1): one unit in the last place, through the bits. */
function adjacentDouble(double: number, step: 1 | -1): number {
  if (double === 0) return step * Number.MIN_VALUE;
  const bits = new BigUint64Array(new Float64Array([double]).buffer);
  // The bits hold the magnitude: a step away from zero adds one, a step towards it takes one.
  bits[0] = bits[0]! + BigInt((double > 0) === (step > 0) ? 1 : -1);
  return new Float64Array(bits.buffer)[0]!;
}

function isSchemaRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isJsonNumber(value);
}

/** Nothing for undefined (a value left out); a plain assignment of "__proto__" would set the prototype instead of the key. */
function defineShown(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
