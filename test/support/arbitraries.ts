import fc from 'fast-check';
import { JsonNumber, parseJson } from '../../packages/runtime/src/core/json.js';
import { Lexeme } from './reference-validator.js';

/** A JSON Schema inside the contract subset, as a plain object. */
export type Schema = Record<string, unknown>;

const propertyName = fc.oneof(fc.constantFrom('a', 'b', 'name', 'id', '__proto__', 'constructor', 'toString', '', 'x y', 'quote"', 'back\\slash', '*/', '\u2028', '😀'), fc.string({ maxLength: 6 }));
const smallCount = fc.integer({ min: 0, max: 6 });
const bound = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, 0.1, -0.5, 1e21, 2 ** 53));
const jsonScalar = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 4 }));
const annotations = fc.record({ title: fc.string({ maxLength: 8 }), description: fc.string({ maxLength: 12 }), examples: fc.array(jsonScalar, { maxLength: 2 }) }, { requiredKeys: [] });

function optionalRecord(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Schema> {
  return fc.record(fields, { requiredKeys: [] }) as fc.Arbitrary<Schema>;
}

/**
 * Schemas of the subset, `depth` levels deep at most; keywords only where they apply. ajv refuses
 * an empty enum, which the subset allows, hence `nonEmptyEnum` for differential tests.
 */
/** A schema of every declared type, each with the rules its type takes. */
function everyType(rules: { readonly [K in 'numberRules' | 'stringRules' | 'arrayRules' | 'objectRules']: fc.Arbitrary<Schema> }): fc.Arbitrary<Schema>[] {
  return [
    fc.constant({ type: 'null' }),
    fc.constant({ type: 'boolean' }),
    rules.numberRules.map((r) => ({ type: 'number', ...r })),
    rules.numberRules.map((r) => ({ type: 'integer', ...r })),
    rules.stringRules.map((r) => ({ type: 'string', ...r })),
    rules.arrayRules.map((r) => ({ type: 'array', ...r })),
    rules.objectRules.map((r) => ({ type: 'object', ...r })),
  ];
}

export function subsetSchema(depth = 3, options: { nonEmptyEnum?: boolean } = {}): fc.Arbitrary<Schema> {
  const { schema } = fc.letrec<{ schema: Schema }>((tie) => {
    const child = (): fc.Arbitrary<Schema> => (depth <= 0 ? fc.constant({ type: 'string' }) : (tie('schema') as fc.Arbitrary<Schema>));
    const stringRules = optionalRecord({ minLength: smallCount, maxLength: smallCount });
    const numberRules = optionalRecord({ minimum: bound, maximum: bound });
    const arrayRules = optionalRecord({ items: child(), minItems: smallCount, maxItems: smallCount });
    const objectRules = fc.tuple(fc.uniqueArray(propertyName, { maxLength: 4 }), fc.boolean(), fc.option(fc.boolean(), { nil: undefined })).chain(([names, withRequired, additional]) =>
      fc.tuple(fc.array(child(), { minLength: names.length, maxLength: names.length }), fc.subarray(names)).map(([schemas, required]) => {
        const rules: Schema = { properties: Object.fromEntries(names.map((n, i) => [n, schemas[i]])) };
        if (withRequired) rules['required'] = required;
        if (additional !== undefined) rules['additionalProperties'] = additional;
        return rules;
      }),
    );
    const typed = fc.oneof(
      ...everyType({ numberRules, stringRules, arrayRules, objectRules }),
      fc.tuple(stringRules, numberRules, objectRules).map(([s, n, o]) => ({ ...s, ...n, ...o })),
      fc.array(fc.oneof(jsonScalar, fc.array(jsonScalar, { maxLength: 2 }), fc.dictionary(fc.constantFrom('k', 'v'), jsonScalar, { maxKeys: 2 })), { minLength: options.nonEmptyEnum ? 1 : 0, maxLength: 4 }).map((values) => ({ enum: values })),
      fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 4 }).map((values) => ({ type: 'string', enum: values })),
    );
    return { schema: fc.tuple(typed, annotations).map(([s, a]) => ({ ...a, ...s })) };
  });
  return schema;
}

/** Values close to what a schema accepts: mostly valid shapes, with values near each bound. */
export function nearInstance(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const anything = fc.jsonValue({ maxDepth: 2 });
  if (depth > 6) return anything;
  const options: fc.Arbitrary<unknown>[] = [anything];
  if (Array.isArray(schema['enum'])) options.push(fc.constantFrom(...(schema['enum'] as unknown[]).concat([null])));
  const n = (key: string): number | undefined => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const near = (value: number | undefined): number[] => (value === undefined ? [] : [value - 1, value, value + 1, value - 0.5, value + 0.5]);
  options.push(fc.constantFrom(0, 1, 1.5, -1, ...near(n('minimum')), ...near(n('maximum'))));
  const lengths = [...near(n('minLength')), ...near(n('maxLength'))].filter((l) => Number.isInteger(l) && l >= 0);
  options.push(fc.constantFrom(0, 1, 2, ...lengths).chain((length) => fc.string({ minLength: length, maxLength: length, unit: fc.constantFrom('a', 'é', '😀', '\uD800') })));
  const items = schema['items'] as Schema | undefined;
  options.push(fc.array(items === undefined ? anything : nearInstance(items, depth + 1), { maxLength: Math.max(3, (n('maxItems') ?? 0) + 1) }));
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const entries = Object.entries(properties).map(([key, value]) => fc.option(nearInstance(value, depth + 1), { nil: undefined, freq: 4 }).map((v) => [key, v] as const));
  options.push(
    fc.tuple(fc.tuple(...entries), fc.option(fc.constantFrom('extra', 'toString', '__proto__'), { nil: undefined, freq: 3 })).map(([pairs, extra]) => {
      const object: Record<string, unknown> = {};
      for (const [key, value] of pairs) if (value !== undefined) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      if (extra !== undefined) Object.defineProperty(object, extra, { value: 1, enumerable: true, writable: true, configurable: true });
      return object;
    }),
  );
  return fc.oneof(...options);
}

/** Number literals as a contract author may write them: `1.0`, `1e0`, `-0`, `-0.0` keep their text. */
const writtenNumber = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('1.0', '1e0', '-0', '-0.0', '0.0', '2.50', '1e1', '-1.5e0', '0.1', '1e21').map((text) => new Lexeme(text)),
);
const enumMember = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  writtenNumber,
  fc.string({ maxLength: 3 }),
  fc.array(fc.oneof(fc.constant(null), writtenNumber, fc.string({ maxLength: 2 })), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('k', 'v', 'a'), fc.oneof(fc.constant(null), writtenNumber, fc.string({ maxLength: 2 })), { maxKeys: 2 }),
);
const namePool = fc.constantFrom('a', 'b', 'name', '__proto__', 'toString', 'constructor', '');

/**
 * Schemas for the reference differential: what `subsetSchema` makes, and the corners it misses:
 * `required` names outside `properties` (with and without `additionalProperties: false`), schemas
 * without `type` that carry object, array, string and number keywords at once, enums of objects
 * and arrays, and numbers written as `1.0`, `1e0`, `-0`, `-0.0`.
 */
export function broadSchema(depth = 2): fc.Arbitrary<Schema> {
  const { schema } = fc.letrec<{ schema: Schema }>((tie) => {
    const child = (): fc.Arbitrary<Schema> => (depth <= 0 ? fc.constant({}) : (tie('schema') as fc.Arbitrary<Schema>));
    const count = fc.oneof(
      smallCount,
      fc.constantFrom('2.0', '0.0', '1e0').map((text) => new Lexeme(text)),
    );
    const stringRules = optionalRecord({ minLength: count, maxLength: count });
    const numberRules = optionalRecord({ minimum: writtenNumber, maximum: writtenNumber });
    const arrayRules = optionalRecord({ items: child(), minItems: count, maxItems: count });
    const objectRules = fc.tuple(fc.uniqueArray(namePool, { maxLength: 3 }), fc.uniqueArray(namePool, { maxLength: 3 }), fc.option(fc.boolean(), { nil: undefined })).chain(([names, required, additional]) =>
      fc.array(child(), { minLength: names.length, maxLength: names.length }).map((schemas) => {
        const rules: Record<string, unknown> = {};
        if (names.length > 0) {
          const properties: Record<string, unknown> = {};
          names.forEach((n, i) => {
            Object.defineProperty(properties, n, { value: schemas[i], enumerable: true, writable: true, configurable: true });
          });
          rules['properties'] = properties;
        }
        if (required.length > 0) rules['required'] = required;
        if (additional !== undefined) rules['additionalProperties'] = additional;
        return rules as Schema;
      }),
    );
    const withEnum = (base: fc.Arbitrary<Schema>): fc.Arbitrary<Schema> => fc.tuple(base, fc.option(fc.array(enumMember, { maxLength: 4 }), { nil: undefined, freq: 3 })).map(([s, values]) => (values === undefined ? s : { ...s, enum: values }));
    const typed = fc.oneof(
      ...everyType({ numberRules, stringRules, arrayRules, objectRules }),
      objectRules.map((r) => ({ type: 'object', ...r })),
      fc.tuple(stringRules, numberRules, arrayRules, objectRules).map(([s, n, a, o]) => ({ ...s, ...n, ...a, ...o })),
    );
    return { schema: withEnum(typed) };
  });
  return schema;
}

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : value instanceof Lexeme ? Number(value.text) : undefined);

/** Values near what a broad schema accepts, in the mode's number representations; JSON values only. */
export function nearValue(schema: Schema, exact: boolean, depth = 0): fc.Arbitrary<unknown> {
  const anything = fc.jsonValue({ maxDepth: 2 });
  if (depth > 4) return anything;
  const options: fc.Arbitrary<unknown>[] = [anything];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) options.push(fc.constantFrom(...(schema['enum'] as unknown[])).map((v) => asValue(v, exact)));
  const near = (value: number | undefined): number[] => (value === undefined ? [] : [value - 1, value, value + 1, value - 0.5, value + 0.5]);
  const numbers = [0, -0, 1, 1.5, -1, ...near(numberOf(schema['minimum'])), ...near(numberOf(schema['maximum']))];
  options.push(
    fc
      .constantFrom(...numbers)
      .map((n) => (exact ? exactForm(n) : fc.constant(n)))
      .chain((a) => a),
  );
  const lengths = [...near(numberOf(schema['minLength'])), ...near(numberOf(schema['maxLength']))].filter((l) => Number.isInteger(l) && l >= 0);
  options.push(fc.constantFrom(0, 1, 2, ...lengths).chain((length) => fc.string({ minLength: length, maxLength: length, unit: fc.constantFrom('a', 'é', '😀', '\uD800') })));
  const items = schema['items'] as Schema | undefined;
  options.push(fc.array(items === undefined ? anything : nearValue(items, exact, depth + 1), { maxLength: Math.max(3, (numberOf(schema['maxItems']) ?? 0) + 1) }));
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const names = [...new Set([...Object.keys(properties), ...((schema['required'] ?? []) as string[])])];
  const entries = names.map((key) => fc.option(Object.hasOwn(properties, key) ? nearValue(properties[key]!, exact, depth + 1) : anything, { nil: undefined, freq: 4 }).map((v) => [key, v] as const));
  options.push(
    fc.tuple(fc.tuple(...entries), fc.option(fc.constantFrom('extra', 'toString', '__proto__', 'a'), { nil: undefined, freq: 3 })).map(([pairs, extra]) => {
      const object: Record<string, unknown> = {};
      for (const [key, value] of pairs) if (value !== undefined) defineOwn(object, key, value);
      if (extra !== undefined && !Object.hasOwn(object, extra)) defineOwn(object, extra, 1);
      return object;
    }),
  );
  return fc.oneof(...options);
}

function defineOwn(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** An enum member or bound as a value: a Lexeme becomes the number it writes (exact mode: in every representation). */
function asValue(value: unknown, exact: boolean): unknown {
  if (value instanceof Lexeme) return exact ? parseJson(value.text, { exactNumbers: true }) : Number(value.text);
  if (Array.isArray(value)) return value.map((item) => asValue(item, exact));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) defineOwn(copy, key, asValue((value as Record<string, unknown>)[key], exact));
    return copy;
  }
  return value;
}

/** Exact mode: a number as a double, as a bigint when whole, and as a JsonNumber of the same value. */
function exactForm(n: number): fc.Arbitrary<unknown> {
  const forms: unknown[] = [n, new JsonNumber(JSON.stringify(n))];
  if (Number.isInteger(n)) forms.push(BigInt(n));
  return fc.constantFrom(...forms);
}

/**
 * A JSON value made hostile while keeping most of its JSON meaning: non-enumerable and accessor
 * properties, symbol keys, null-prototype objects, class instances, sparse arrays (with an extra
 * property making up their count of keys), arrays with Object.prototype, boxed primitives.
 * The reference validator decides what each means as JSON.
 */
export function hostileVersion(value: unknown): fc.Arbitrary<unknown> {
  const leaf = fc.constantFrom<unknown>(undefined, Symbol('s'), () => 1, Number.NaN, new Number(1), new String('a'), new Boolean(true), new Date(0), new Map(), 1n);
  if (Array.isArray(value)) {
    return fc.tuple(fc.tuple(...value.map((item) => fc.oneof({ weight: 4, arbitrary: hostileVersion(item) }, { weight: 1, arbitrary: leaf }))), fc.constantFrom('plain', 'plain', 'sparse', 'subclass', 'extra-key', 'sparse-extra-key', 'object-prototype')).map(([items, form]) => {
      const array: unknown[] = form === 'subclass' ? new (class Items extends Array<unknown> {})() : [];
      const sparse = form === 'sparse' || form === 'sparse-extra-key';
      items.forEach((item, i) => {
        if (!(sparse && i === 0)) array[i] = item;
      });
      if (sparse) array.length = Math.max(array.length, 1);
      // With a hole, one extra property makes up the count of own keys that a dense array has.
      if (form === 'extra-key' || form === 'sparse-extra-key') (array as unknown as Record<string, unknown>)['extra'] = 1;
      // Still an array (Array.isArray, and JSON.stringify writes it as one), never an object.
      if (form === 'object-prototype') Object.setPrototypeOf(array, Object.prototype);
      return array;
    });
  }
  if (typeof value !== 'object' || value === null) return fc.oneof({ weight: 6, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: leaf });
  const keys = Object.keys(value);
  const source = value as Record<string, unknown>;
  return fc
    .tuple(
      fc.tuple(...keys.map((key) => fc.tuple(fc.oneof({ weight: 5, arbitrary: hostileVersion(source[key]) }, { weight: 1, arbitrary: leaf }), fc.constantFrom('data', 'data', 'data', 'hidden', 'getter', 'hidden-getter')))),
      fc.constantFrom('plain', 'plain', 'null-prototype', 'class-instance'),
      fc.option(fc.tuple(fc.constantFrom('a', 'b', 'name', 'extra', 'toString'), fc.constantFrom('hidden', 'symbol', 'enumerable')), { nil: undefined }),
    )
    .map(([members, form, extra]) => {
      const object: Record<string | symbol, unknown> = form === 'null-prototype' ? Object.create(null) : form === 'class-instance' ? new (class Instance {})() : {};
      members.forEach(([member, how], i) => {
        const key = keys[i]!;
        if (how === 'data') Object.defineProperty(object, key, { value: member, enumerable: true, writable: true, configurable: true });
        else if (how === 'hidden') Object.defineProperty(object, key, { value: member, enumerable: false, configurable: true });
        else Object.defineProperty(object, key, { get: () => member, enumerable: how === 'getter', configurable: true });
      });
      if (extra !== undefined) {
        const [key, how] = extra;
        if (how === 'symbol') object[Symbol(key)] = 1;
        else if (!Object.hasOwn(object, key)) Object.defineProperty(object, key, { value: 1, enumerable: how === 'enumerable', configurable: true });
      }
      return object;
    });
}
