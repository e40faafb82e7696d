/**
 * Lossless JSON for exact-mode contracts, with no dependency: a number is kept as a JS `number`
 * when that loses nothing, as a `bigint` when it is an integer a double cannot hold, and as a
 * `JsonNumber` otherwise. `stringifyJson` writes all three back without loss.
 */

/** Generated exact-mode modules recognise a JsonNumber by this registered symbol, not by import. */
export const jsonNumberBrand: unique symbol = Symbol.for('json-tool-contracts/JsonNumber') as never;

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
  if (typeof value === 'bigint') return String(value);
  if (value instanceof JsonNumber) return value.decimal;
  if (Array.isArray(value)) return `[${value.map((item) => stringifyJson(item === undefined ? null : item)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members: string[] = [];
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined && typeof item !== 'function' && typeof item !== 'symbol') members.push(`${JSON.stringify(key)}:${stringifyJson(item)}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A deep copy: fresh objects and arrays (own keys such as `__proto__` kept as keys), shared immutable leaves. */
export function copyJsonValue<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJsonValue) as T;
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, key, { value: copyJsonValue(item), enumerable: true, writable: true, configurable: true });
  return copy as T;
}

/** ±digits × 10^exponent, digits without leading or trailing zeros ('' for zero). */
export interface ParsedDecimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

/** Reads JSON number syntax (and JS's `1e+21`); undefined if the text is not a number. */
export function parseDecimal(text: string): ParsedDecimal | undefined {
  let i = 0;
  const negative = text[i] === '-';
  if (negative) i++;
  let digits = '';
  let fraction = 0;
  let seenDigit = false;
  let seenPoint = false;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c >= '0' && c <= '9') {
      seenDigit = true;
      if (seenPoint) fraction++;
      if (digits !== '' || c !== '0') digits += c;
    } else if (c === '.' && !seenPoint) {
      seenPoint = true;
    } else {
      break;
    }
  }
  if (!seenDigit) return undefined;
  let exponent = 0;
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    const exponentText = text.slice(i);
    if (!/^[+-]?[0-9]+$/.test(exponentText)) return undefined;
    exponent = Number(exponentText);
    i = text.length;
  }
  if (i !== text.length) return undefined;
  let end = digits.length;
  while (end > 0 && digits[end - 1] === '0') end--;
  const kept = digits.slice(0, end);
  return { negative: negative && kept !== '', digits: kept, exponent: exponent - fraction + (digits.length - end) };
}

/** The shortest plain or scientific text for a decimal: `0.1`, `12300`, `1e+400`-style as `1e400`. */
export function decimalText({ negative, digits, exponent }: ParsedDecimal): string {
  if (digits === '') return '0';
  const sign = negative ? '-' : '';
  const pointAt = digits.length + exponent;
  if (exponent >= 0 && pointAt <= 21) return sign + digits + '0'.repeat(exponent);
  if (exponent < 0 && pointAt > 0) return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  if (exponent < 0 && pointAt > -6) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${mantissa}e${pointAt - 1}`;
}

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The representation of a number lexeme in exact mode: a number when that loses nothing, a bigint
 * for digits-only integer literals beyond 2^53, a JsonNumber otherwise.
 */
export function exactNumber(lexeme: string): number | bigint | JsonNumber {
  const parsed = parseDecimal(lexeme)!;
  const asNumber = Number(lexeme);
  if (Number.isFinite(asNumber)) {
    const roundTrip = parseDecimal(String(asNumber))!;
    if (roundTrip.digits === parsed.digits && roundTrip.exponent === parsed.exponent) return Object.is(asNumber, -0) ? 0 : asNumber;
  }
  // Only a literal written as plain digits becomes a bigint: `1e1000000000` must not allocate a billion digits.
  if (/^-?[0-9]+$/.test(lexeme)) {
    const integer = BigInt(lexeme);
    if (integer > maxSafe || integer < -maxSafe) return integer;
  }
  return new JsonNumber(lexeme);
}

class JsonReader {
  private index = 0;
  private nodes = 0;

  constructor(
    private readonly text: string,
    private readonly exact: boolean,
    private readonly maxDepth: number,
    private readonly maxNodes: number,
  ) {}

  document(): ExactJsonValue {
    const value = this.value(0);
    this.space();
    if (this.index < this.text.length) this.fail('unexpected text after the JSON value');
    return value;
  }

  private value(depth: number): ExactJsonValue {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
    if (++this.nodes > this.maxNodes) this.fail(`more than ${this.maxNodes} values`);
    this.space();
    const c = this.text[this.index];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.index)) {
        this.index += word.length;
        return value;
      }
    }
    return this.number();
  }

  private object(depth: number): ExactJsonValue {
    this.index++;
    const result: Record<string, ExactJsonValue> = {};
    this.space();
    if (this.text[this.index] === '}') {
      this.index++;
      return result;
    }
    for (;;) {
      this.space();
      if (this.text[this.index] !== '"') this.fail('expected a property name');
      const key = this.string();
      this.space();
      if (this.text[this.index++] !== ':') this.fail('expected ":"');
      // defineProperty, so that "__proto__" is an ordinary own key, as JSON.parse makes it.
      Object.defineProperty(result, key, { value: this.value(depth + 1), enumerable: true, writable: true, configurable: true });
      this.space();
      const next = this.text[this.index++];
      if (next === '}') return result;
      if (next !== ',') this.fail('expected "," or "}"');
    }
  }

  private array(depth: number): ExactJsonValue {
    this.index++;
    const result: ExactJsonValue[] = [];
    this.space();
    if (this.text[this.index] === ']') {
      this.index++;
      return result;
    }
    for (;;) {
      result.push(this.value(depth + 1));
      this.space();
      const next = this.text[this.index++];
      if (next === ']') return result;
      if (next !== ',') this.fail('expected "," or "]"');
    }
  }

  private string(): string {
    const start = this.index;
    this.index++;
    for (;;) {
      const c = this.text.charCodeAt(this.index);
      if (Number.isNaN(c)) this.fail('unterminated string');
      if (c === 0x22) break;
      if (c < 0x20) this.fail('control character in a string');
      this.index += c === 0x5c ? 2 : 1;
    }
    this.index++;
    try {
      return JSON.parse(this.text.slice(start, this.index)) as string;
    } catch {
      return this.fail('invalid string escape');
    }
  }

  private number(): number | bigint | JsonNumber {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(this.text.slice(this.index, this.index + 4096));
    if (match === null) return this.fail('expected a JSON value');
    const lexeme = match[0];
    const start = this.index;
    this.index += lexeme.length;
    if (this.exact) return exactNumber(lexeme);
    const value = Number(lexeme);
    if (!Number.isFinite(value)) this.fail(`the number ${lexeme} is outside the range of a 64-bit float (contracts built with --exact-numbers keep it)`, start);
    return value;
  }

  private space(): void {
    for (;;) {
      const c = this.text[this.index];
      if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') return;
      this.index++;
    }
  }

  private fail(message: string, offset = this.index): never {
    throw new SyntaxError(`${message} at offset ${offset}`);
  }
}
