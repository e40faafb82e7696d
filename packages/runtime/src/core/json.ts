/**
 * Lossless JSON for exact-mode contracts, with no dependency: a number is kept as a JS `number`
 * when that loses nothing, as a `bigint` when it is an integer a double cannot hold, and as a
 * `JsonNumber` otherwise. `stringifyJson` writes all three back without loss.
 */

import { compareDecimal } from '../support/compare-decimal.js';
import { decimalOf } from '../support/decimal-of.js';
import { isJsonNumberText } from '../support/is-json-number-text.js';
import { isJsonNumber as isBrandedJsonNumber } from '../support/is-json-number.js';
import { jsonNumberBrand as supportBrand } from '../support/json-number-brand.js';

export { copyJsonValue } from '../support/copy-json-value.js';

/** Part of how a JsonNumber is recognised, by generated modules too (they import nothing): the support code's symbol, typed so that the class can carry it. */
export const jsonNumberBrand: unique symbol = supportBrand as never;

/** A JSON number that neither a double nor a bigint holds exactly, e.g. `0.30000000000000000001` or `1e400`. */
export class JsonNumber {
  /** The canonical decimal text: no leading or trailing zeros beyond what the value needs. */
  readonly decimal: string;

  constructor(text: string) {
    const parsed = parseDecimal(text);
    if (parsed === undefined) throw new SyntaxError(`not a JSON number: ${JSON.stringify(text)}`);
    this.decimal = decimalText(parsed);
    Object.freeze(this);
  }

  get [jsonNumberBrand](): true {
    return true;
  }

  toString(): string {
    return this.decimal;
  }
}

/**
 * A JsonNumber, from this runtime or a generated module's literals: branded, frozen, with
 * `decimal` an own data property holding JSON number text. The brand alone is not enough (any
 * object can carry a registered symbol); an object that passes all of it is an immutable number
 * whose value is its `decimal`, which is exactly what every check reads. The same function a
 * generated module carries (`src/support/is-json-number.ts`).
 */
export const isJsonNumber = isBrandedJsonNumber as (value: unknown) => value is JsonNumber;

export interface ParseOptions {
  /** Keep every digit (exact-mode contracts). Without it, numbers are JS numbers and one outside the f64 range is an error. */
  readonly exactNumbers?: boolean;
  /** Nesting deeper than this is an error rather than a stack overflow (default 256). */
  readonly maxDepth?: number;
  /** More values than this (containers and scalars) is an error (default: no limit). */
  readonly maxNodes?: number;
}

export type ExactJsonValue = null | boolean | number | bigint | JsonNumber | string | ExactJsonValue[] | { [key: string]: ExactJsonValue };

/** Parses JSON text; throws SyntaxError with the offset for malformed text. */
export function parseJson(text: string, options: ParseOptions = {}): ExactJsonValue {
  return new JsonReader(text, options.exactNumbers ?? false, options.maxDepth ?? 256, options.maxNodes ?? Number.POSITIVE_INFINITY).document();
}

/** JSON text for a value that may hold bigints and JsonNumbers (and plain JSON values). */
export function stringifyJson(value: unknown): string {
  return jsonText(value, false);
}

/**
 * The exact values that values rebuilt with doubles stand for: a schema or an output handed to a
 * host as JS values has each number a double, and where the runtime writes the JSON text itself
 * (`mcpHttpHandler`) it writes the exact value's digits in its place.
 */
const exactOriginals = new WeakMap<object, unknown>();

/**
 * Records that `doubles`, built from `exact` with each number a double, stands for it in the text
 * `exactJsonText` writes; so does each plain object in it under the same key as a plain object of
 * `exact`, so that a shallow copy of the root keeps the digits of what it shares. Returns `doubles`.
 */
export function standingFor<T>(doubles: T, exact: unknown): T {
  if (isContainer(doubles) && isContainer(exact) && doubles !== exact && Array.isArray(doubles) === Array.isArray(exact)) {
    exactOriginals.set(doubles, exact);
    // Not into arrays: an enum shown to a host may have left members out, so indices need not pair.
    if (!Array.isArray(doubles)) for (const key of Object.keys(doubles)) if (Object.hasOwn(exact, key)) standingFor((doubles as Record<string, unknown>)[key], (exact as Record<string, unknown>)[key]);
  }
  return doubles;
}

/** `stringifyJson`, writing a value that stands for an exact one (`standingFor`) as that exact value. */
export function exactJsonText(value: unknown): string {
  return jsonText(value, true);
}

/** An own enumerable data property, as JSON.parse makes one: a plain assignment of "__proto__" would set the prototype instead. */
export function defineJsonProperty(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !isJsonNumber(value);
}

function jsonText(value: unknown, exactOnes: boolean): string {
  if (typeof value === 'bigint') return String(value);
  if (isJsonNumber(value)) return value.decimal;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const exact = exactOnes ? exactOriginals.get(value) : undefined;
  if (exact !== undefined) return jsonText(exact, false);
  if (Array.isArray(value)) return `[${value.map((item) => jsonText(item === undefined ? null : item, exactOnes)).join(',')}]`;
  const members: string[] = [];
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined && typeof item !== 'function' && typeof item !== 'symbol') members.push(`${JSON.stringify(key)}:${jsonText(item, exactOnes)}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * ±digits × 10^exponent, digits without leading or trailing zeros ('' for zero, whose exponent is
 * 0). The exponent is a bigint: `1e99999999999999999999999` is a JSON number too, and exponents of
 * any size must compare exactly.
 */
export interface ParsedDecimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: bigint;
}

/** Reads JSON number text (JS writes numbers in it too, `1e+21` included); undefined for any other text. */
export function parseDecimal(text: string): ParsedDecimal | undefined {
  if (!isJsonNumberText(text)) return undefined;
  const [negative, digits, exponent] = decimalOf(text);
  return { negative, digits, exponent };
}

/** True when the nearest f64 of the literal, written as JSON.stringify writes it, is the literal's own value. */
export function roundTripsThroughF64(lexeme: string): boolean {
  const f64 = Number(lexeme);
  return Number.isFinite(f64) && compareDecimals(parseDecimal(String(f64))!, parseDecimal(lexeme)!) === 0;
}

/** Orders two exact decimals: -1, 0 or 1. Digits and exponents of any size, never through a float. */
export function compareDecimals(a: ParsedDecimal, b: ParsedDecimal): -1 | 0 | 1 {
  return compareDecimal([a.negative, a.digits, a.exponent], [b.negative, b.digits, b.exponent]) as -1 | 0 | 1;
}

/** Whole numbers: zero, or no digit after the point once trailing zeros are gone. */
export function isWholeDecimal(decimal: ParsedDecimal): boolean {
  return decimal.digits === '' || decimal.exponent >= 0n;
}

/** The same value always gives the same key (`1`, `1.0`, `10e-1`, `-0`): the form generated code computes too. */
export function decimalKey({ negative, digits, exponent }: ParsedDecimal): string {
  return `${negative ? '-' : ''}${digits}e${exponent}`;
}

/** The shortest plain or scientific text for a decimal: `0.1`, `12300`, `1e+400`-style as `1e400`. */
export function decimalText({ negative, digits, exponent }: ParsedDecimal): string {
  if (digits === '') return '0';
  const sign = negative ? '-' : '';
  const pointAt = BigInt(digits.length) + exponent;
  if (exponent >= 0n && pointAt <= 21n) return sign + digits + '0'.repeat(Number(exponent));
  if (exponent < 0n && pointAt > 0n) return `${sign}${digits.slice(0, Number(pointAt))}.${digits.slice(Number(pointAt))}`;
  if (exponent < 0n && pointAt > -6n) return `${sign}0.${'0'.repeat(Number(-pointAt))}${digits}`;
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${mantissa}e${pointAt - 1n}`;
}

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The representation of a number lexeme in exact mode: a number when that loses nothing, a bigint
 * for digits-only integer literals beyond 2^53, a JsonNumber otherwise.
 */
export function exactNumber(lexeme: string): number | bigint | JsonNumber {
  // The lexeme is JSON number text (the reader scanned it), so it is read without checking it again.
  const [, digits, exponent] = decimalOf(lexeme);
  const asNumber = Number(lexeme);
  if (Number.isFinite(asNumber)) {
    const [, roundTripDigits, roundTripExponent] = decimalOf(asNumber);
    if (roundTripDigits === digits && roundTripExponent === exponent) return asNumber === 0 ? 0 : asNumber;
  }
  // Only a literal written as plain digits becomes a bigint: `1e1000000000` must not allocate a billion digits.
  if (/^-?[0-9]+$/.test(lexeme)) {
    const integer = BigInt(lexeme);
    if (integer > maxSafe || integer < -maxSafe) return integer;
  }
  return new JsonNumber(lexeme);
}

class JsonReader {
  #index = 0;
  #nodes = 0;

  readonly #text: string;
  readonly #exact: boolean;
  readonly #maxDepth: number;
  readonly #maxNodes: number;

  constructor(text: string, exact: boolean, maxDepth: number, maxNodes: number) {
    this.#text = text;
    this.#exact = exact;
    this.#maxDepth = maxDepth;
    this.#maxNodes = maxNodes;
  }

  document(): ExactJsonValue {
    const value = this.#value(0);
    this.#space();
    if (this.#index < this.#text.length) this.#fail('unexpected text after the JSON value');
    return value;
  }

  #value(depth: number): ExactJsonValue {
    if (depth > this.#maxDepth) this.#fail(`nesting deeper than ${this.#maxDepth} levels`);
    if (++this.#nodes > this.#maxNodes) this.#fail(`more than ${this.#maxNodes} values`);
    this.#space();
    const c = this.#text[this.#index];
    if (c === '{') return this.#object(depth);
    if (c === '[') return this.#array(depth);
    if (c === '"') return this.#string();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.#text.startsWith(word, this.#index)) {
        this.#index += word.length;
        return value;
      }
    }
    return this.#number();
  }

  #object(depth: number): ExactJsonValue {
    this.#index++;
    const result: Record<string, ExactJsonValue> = {};
    this.#space();
    if (this.#text[this.#index] === '}') {
      this.#index++;
      return result;
    }
    for (;;) {
      this.#space();
      if (this.#text[this.#index] !== '"') this.#fail('expected a property name');
      const key = this.#string();
      this.#space();
      if (this.#text[this.#index++] !== ':') this.#fail('expected ":"');
      defineJsonProperty(result, key, this.#value(depth + 1));
      this.#space();
      const next = this.#text[this.#index++];
      if (next === '}') return result;
      if (next !== ',') this.#fail('expected "," or "}"');
    }
  }

  #array(depth: number): ExactJsonValue {
    this.#index++;
    const result: ExactJsonValue[] = [];
    this.#space();
    if (this.#text[this.#index] === ']') {
      this.#index++;
      return result;
    }
    for (;;) {
      result.push(this.#value(depth + 1));
      this.#space();
      const next = this.#text[this.#index++];
      if (next === ']') return result;
      if (next !== ',') this.#fail('expected "," or "]"');
    }
  }

  #string(): string {
    const start = this.#index;
    this.#index++;
    for (;;) {
      const c = this.#text.charCodeAt(this.#index);
      if (Number.isNaN(c)) this.#fail('unterminated string');
      if (c === 0x22) break;
      if (c < 0x20) this.#fail('control character in a string');
      this.#index += c === 0x5c ? 2 : 1;
    }
    this.#index++;
    try {
      return JSON.parse(this.#text.slice(start, this.#index)) as string;
    } catch {
      return this.#fail('invalid string escape');
    }
  }

  /** JSON number syntax, scanned to its end however long it is: a number is never cut at some length. */
  #number(): number | bigint | JsonNumber {
    const text = this.#text;
    const start = this.#index;
    let i = start;
    const digitsFrom = (from: number): number => {
      let j = from;
      while (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
      return j;
    };
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (text.charCodeAt(i) >= 0x31 && text.charCodeAt(i) <= 0x39) i = digitsFrom(i);
    else return this.#fail('expected a JSON value');
    if (text.charCodeAt(i) === 0x2e) {
      const end = digitsFrom(i + 1);
      if (end === i + 1) return this.#fail('expected a digit after the decimal point', i + 1);
      i = end;
    }
    if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
      let from = i + 1;
      if (text.charCodeAt(from) === 0x2b || text.charCodeAt(from) === 0x2d) from++;
      const end = digitsFrom(from);
      if (end === from) return this.#fail('expected a digit in the exponent', from);
      i = end;
    }
    const lexeme = text.slice(start, i);
    this.#index = i;
    if (this.#exact) return exactNumber(lexeme);
    const value = Number(lexeme);
    if (!Number.isFinite(value)) this.#fail(`the number ${lexeme.length > 40 ? `${lexeme.slice(0, 40)}…` : lexeme} is outside the range of a 64-bit float (contracts built with --exact-numbers keep it)`, start);
    return value;
  }

  #space(): void {
    for (;;) {
      const c = this.#text[this.#index];
      if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') return;
      this.#index++;
    }
  }

  #fail(message: string, offset = this.#index): never {
    throw new SyntaxError(`${message} at offset ${offset}`);
  }
}
