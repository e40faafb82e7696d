import { Decimal } from 'decimal.js';

/**
 * An independent reference validator, written from the README's semantics and sharing no code
 * with `src/`: it first turns a JS value into what it means as JSON (own enumerable string-keyed
 * properties, as `Object.keys` and `JSON.stringify` see them), then applies the subset's JSON
 * Schema 2020-12 rules to that meaning. Slow and plain on purpose: it is the yardstick.
 */

/** A schema as plain data; a number may be a `Lexeme`, so that `1.0`, `-0.0` and `1e0` survive into the text. */
export type ReferenceSchema = { readonly [keyword: string]: unknown };

/** A number literal written exactly as given, in schemas and in enum values. */
export class Lexeme {
  constructor(readonly text: string) {}
}

/** Schema text with every `Lexeme` written as its own text. */
export function schemaText(value: unknown): string {
  if (value instanceof Lexeme) return value.text;
  if (Array.isArray(value)) return `[${value.map(schemaText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .map((key) => `${JSON.stringify(key)}:${schemaText((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What a value means as JSON: numbers as exact decimals, objects as key → meaning maps. */
type Meaning = null | boolean | string | { readonly number: Decimal } | readonly Meaning[] | ReadonlyMap<string, Meaning>;

class NotJson extends Error {}

const jsonNumberBrand = Symbol.for('json-tool-contracts/JsonNumber');
const jsonNumberText = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** The runtime's lossless number, told by what it is (frozen, branded, own decimal text), not by import. */
function jsonNumberDecimal(value: object): string | undefined {
  if (!Object.isFrozen(value) || (value as Record<symbol, unknown>)[jsonNumberBrand] !== true) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, 'decimal');
  if (descriptor === undefined || !('value' in descriptor) || typeof descriptor.value !== 'string') return undefined;
  return jsonNumberText.test(descriptor.value) ? descriptor.value : undefined;
}

function meaningOf(value: unknown, exact: boolean, depth: number): Meaning {
  if (depth > 200) throw new NotJson();
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new NotJson();
      // Exact mode: a JS number counts as the decimal JSON.stringify writes for it.
      return { number: new Decimal(exact ? JSON.stringify(value) : value) };
    case 'bigint':
      if (!exact) throw new NotJson();
      return { number: new Decimal(value.toString()) };
    case 'object': {
      if (value === null) return null;
      if (exact) {
        const decimal = jsonNumberDecimal(value);
        if (decimal !== undefined) return { number: new Decimal(decimal) };
      }
      if (Array.isArray(value)) {
        const items: Meaning[] = [];
        for (let i = 0; i < value.length; i++) {
          if (!Object.hasOwn(value, i)) throw new NotJson();
          items.push(meaningOf(value[i], exact, depth + 1));
        }
        return items;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) throw new NotJson();
      const members = new Map<string, Meaning>();
      for (const key of Object.keys(value)) members.set(key, meaningOf((value as Record<string, unknown>)[key], exact, depth + 1));
      return members;
    }
    default:
      throw new NotJson();
  }
}

const isNumber = (m: Meaning): m is { readonly number: Decimal } => typeof m === 'object' && m !== null && !Array.isArray(m) && !(m instanceof Map);
const isObject = (m: Meaning): m is ReadonlyMap<string, Meaning> => m instanceof Map;
const isArray = (m: Meaning): m is readonly Meaning[] => Array.isArray(m);

function sameMeaning(a: Meaning, b: Meaning): boolean {
  if (isNumber(a)) return isNumber(b) && a.number.equals(b.number);
  if (isArray(a)) return isArray(b) && a.length === b.length && a.every((item, i) => sameMeaning(item, b[i]!));
  if (isObject(a)) return isObject(b) && a.size === b.size && [...a].every(([key, item]) => b.has(key) && sameMeaning(item, b.get(key)!));
  return a === b;
}

/** A bound or enum number of the schema: exact, or the nearest f64 of its literal in the default mode. */
function schemaNumber(value: unknown, exact: boolean): Decimal {
  const text = value instanceof Lexeme ? value.text : String(value);
  return exact ? new Decimal(text) : new Decimal(Number(text));
}

/** A schema value (an enum member) as a meaning, numbers read as the mode reads them. */
function schemaMeaning(value: unknown, exact: boolean): Meaning {
  if (value instanceof Lexeme || typeof value === 'number') return { number: schemaNumber(value, exact) };
  if (Array.isArray(value)) return value.map((item) => schemaMeaning(item, exact));
  if (typeof value === 'object' && value !== null) return new Map(Object.keys(value).map((key) => [key, schemaMeaning((value as Record<string, unknown>)[key], exact)]));
  return value as Meaning;
}

function holds(schema: ReferenceSchema, m: Meaning, exact: boolean): boolean {
  const type = schema['type'];
  if (type !== undefined) {
    const ok = type === 'null' ? m === null : type === 'boolean' ? typeof m === 'boolean' : type === 'string' ? typeof m === 'string' : type === 'number' ? isNumber(m) : type === 'integer' ? isNumber(m) && m.number.isInteger() : type === 'array' ? isArray(m) : type === 'object' ? isObject(m) : false;
    if (!ok) return false;
  }
  if (Array.isArray(schema['enum']) && !schema['enum'].some((allowed) => sameMeaning(schemaMeaning(allowed, exact), m))) return false;
  if (typeof m === 'string') {
    const length = [...m].length;
    if (schema['minLength'] !== undefined && length < Number(schemaNumber(schema['minLength'], true))) return false;
    if (schema['maxLength'] !== undefined && length > Number(schemaNumber(schema['maxLength'], true))) return false;
  }
  if (isNumber(m)) {
    if (schema['minimum'] !== undefined && m.number.lessThan(schemaNumber(schema['minimum'], exact))) return false;
    if (schema['maximum'] !== undefined && m.number.greaterThan(schemaNumber(schema['maximum'], exact))) return false;
  }
  if (isArray(m)) {
    if (schema['minItems'] !== undefined && m.length < Number(schemaNumber(schema['minItems'], true))) return false;
    if (schema['maxItems'] !== undefined && m.length > Number(schemaNumber(schema['maxItems'], true))) return false;
    const items = schema['items'] as ReferenceSchema | undefined;
    if (items !== undefined && !m.every((item) => holds(items, item, exact))) return false;
  }
  if (isObject(m)) {
    const properties = (schema['properties'] ?? {}) as Record<string, ReferenceSchema>;
    const declared = Object.keys(properties);
    for (const name of (schema['required'] ?? []) as string[]) if (!m.has(name)) return false;
    for (const name of declared) {
      const member = m.get(name);
      if (member !== undefined && !holds(properties[name]!, member, exact)) return false;
    }
    if (schema['additionalProperties'] === false && [...m.keys()].some((key) => !declared.includes(key))) return false;
  }
  return true;
}

/** The reference verdict: does `value`, as JSON, satisfy `schema`? Anything that is not JSON fails. */
export function referenceHolds(schema: ReferenceSchema, value: unknown, exact = false): boolean {
  let meaning: Meaning;
  try {
    meaning = meaningOf(value, exact, 0);
  } catch {
    // NotJson, or a value that throws when read (a throwing getter, a revoked proxy): not JSON either.
    return false;
  }
  return holds(schema, meaning, exact);
}
