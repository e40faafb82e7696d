import { Ajv2020 } from 'ajv/dist/2020.js';
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonNumber } from '../../src/index.js';
import { hostJsonSchema } from '../../src/support/host-json-schema.js';
import { nextDouble } from './next-double.js';

/**
 * hostJsonSchema against decimal.js as the oracle: what a host is shown of an exact-mode bound is a
 * double never looser than the bound (input) and the double every output at the bound arrives as
 * (output), and the schema is valid JSON Schema 2020-12.
 */
const metaSchema = new Ajv2020({ strict: false });
const isJsonSchema = (schema: unknown): boolean => metaSchema.validateSchema(schema as object) as boolean;

/** The decimal the runtime reads a JS number as: the digits JSON.stringify writes for it. */
const valueOf = (double: number): Decimal => new Decimal(String(double));

const largest = new Decimal(String(Number.MAX_VALUE));
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
/** Bound literals a double mostly does not hold: up to 30 digits, exponents past both ends of the double range. */
const boundLiteral = fc
  .tuple(fc.boolean(), fc.constantFrom(...'123456789'), digits(0, 29), fc.option(digits(1, 25), { nil: undefined }), fc.integer({ min: -340, max: 340 }))
  .map(([negative, first, rest, fraction, exponent]) => `${negative ? '-' : ''}${first}${rest}${fraction === undefined ? '' : `.${fraction}`}e${exponent}`);

describe('hostJsonSchema', () => {
  it('shows an input bound as the double on the safe side: the last one the runtime reads as inside it (property)', () => {
    fc.assert(
      fc.property(boundLiteral, fc.constantFrom('minimum', 'maximum'), (literal, keyword) => {
        const bound = new Decimal(literal);
        const shown = hostJsonSchema({ type: 'number', [keyword]: new JsonNumber(literal) }, 'input');
        expect(isJsonSchema(shown)).toBe(true);
        const step = keyword === 'maximum' ? 1 : -1;
        const inside = (double: number) => (keyword === 'maximum' ? valueOf(double).lte(bound) : valueOf(double).gte(bound));
        const double = shown[keyword];
        if (typeof double !== 'number') {
          // No double is inside: beyond the largest of that sign, and the exclusive bound lets nothing through.
          expect(keyword === 'maximum' ? bound.lt(largest.neg()) : bound.gt(largest)).toBe(true);
          expect(shown).toEqual({ type: 'number', [keyword === 'maximum' ? 'exclusiveMaximum' : 'exclusiveMinimum']: -step * Number.MAX_VALUE });
          return;
        }
        expect(inside(double)).toBe(true);
        const beyond = nextDouble(double, step);
        expect(!Number.isFinite(beyond) || !inside(beyond)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('shows an output bound as its nearest double, which every output at the bound arrives as (property)', () => {
    fc.assert(
      fc.property(boundLiteral, fc.constantFrom('minimum', 'maximum'), (literal, keyword) => {
        const shown = hostJsonSchema({ type: 'number', [keyword]: new JsonNumber(literal) }, 'output');
        expect(isJsonSchema(shown)).toBe(true);
        const nearest = Number(literal);
        expect(shown[keyword]).toBe(Number.isFinite(nearest) ? nearest : Math.sign(nearest) * Number.MAX_VALUE);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a bound that is a double as it is, and a bigint bound as the double on the safe side', () => {
    expect(hostJsonSchema({ type: 'number', minimum: new JsonNumber('0.5'), maximum: 2.5 }, 'input')).toEqual({ type: 'number', minimum: 0.5, maximum: 2.5 });
    // 2^64 - 1: the double below 2^64 is 18446744073709549568, which JSON.stringify writes as 18446744073709550000.
    expect(hostJsonSchema({ type: 'integer', minimum: -18446744073709551615n, maximum: 18446744073709551615n }, 'input')).toEqual({ type: 'integer', minimum: -(2 ** 64 - 2048), maximum: 2 ** 64 - 2048 });
    expect(hostJsonSchema({ type: 'integer', maximum: 18446744073709551615n }, 'output')).toEqual({ type: 'integer', maximum: 2 ** 64 });
    expect(hostJsonSchema({ type: 'number', minimum: new JsonNumber('1e-400'), maximum: new JsonNumber('-1e-400') }, 'input')).toEqual({ type: 'number', minimum: Number.MIN_VALUE, maximum: -Number.MIN_VALUE });
    expect(Object.is(hostJsonSchema({ maximum: new JsonNumber('1e-400') }, 'input')['maximum'], 0)).toBe(true);
    // A range no double falls in is shown as the empty range it is to a host that writes doubles.
    expect(hostJsonSchema({ type: 'number', minimum: new JsonNumber('0.30000000000000000001'), maximum: new JsonNumber('0.30000000000000000002') }, 'input')).toEqual({ type: 'number', minimum: nextDouble(0.3, 1), maximum: 0.3 });
  });

  it('shows only the enum members a double equals to a host that fills the schema in, every member as its nearest double to one that checks', () => {
    // 2^53 is a double the runtime reads as 9007199254740992; the double 2^64 it reads as 18446744073709552000, as JSON.stringify writes it.
    const members = [1, 'a', null, new JsonNumber('0.30000000000000000001'), new JsonNumber('0.30000000000000000002'), 2n ** 53n, 2n ** 64n, new JsonNumber('1e400'), { id: 18446744073709551615n }, [2n]];
    expect(hostJsonSchema({ enum: members }, 'input')).toEqual({ enum: [1, 'a', null, 2 ** 53, [2]] });
    // Two members that round to one double are one member; one beyond the double range arrives as no output.
    expect(hostJsonSchema({ enum: members }, 'output')).toEqual({ enum: [1, 'a', null, 0.3, 2 ** 53, 2 ** 64, { id: 2 ** 64 }, [2]] });
  });

  it('leaves out a default and each example holding a number no double holds, in both roles', () => {
    for (const role of ['input', 'output'] as const) {
      expect(hostJsonSchema({ type: 'number', default: new JsonNumber('0.30000000000000000001'), examples: [1, new JsonNumber('1e400'), 5n] }, role)).toEqual({ type: 'number', examples: [1, 5] });
      expect(hostJsonSchema({ type: 'number', default: { a: 2n }, examples: [new JsonNumber('0.30000000000000000001')] }, role)).toEqual({ type: 'number', default: { a: 2 } });
      expect(hostJsonSchema({ type: 'number', examples: [] }, role)).toEqual({ type: 'number', examples: [] });
    }
  });

  it('walks properties and items as schemas: a property named as a keyword is a property, "__proto__" included', () => {
    const properties = JSON.parse('{"__proto__": {"type": "integer"}, "default": {"maximum": 1}, "enum": {"type": "string"}}') as Record<string, unknown>;
    (properties['default'] as Record<string, unknown>)['maximum'] = new JsonNumber('0.30000000000000000001');
    const shown = hostJsonSchema({ type: 'object', properties, items: { type: 'array', items: { maximum: new JsonNumber('0.30000000000000000001') } } }, 'input');
    expect(Object.keys(shown['properties'] as object)).toEqual(['__proto__', 'default', 'enum']);
    expect(Object.getPrototypeOf(shown['properties'])).toBe(Object.prototype);
    expect(shown).toEqual(JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "integer"}, "default": {"maximum": 0.3}, "enum": {"type": "string"}}, "items": {"type": "array", "items": {"maximum": 0.3}}}'));
  });

  it('copies a schema of doubles as it is, a fresh object all the way down', () => {
    const schema = { type: 'object', title: 'T', properties: { n: { type: 'number', minimum: 0.1, maximum: 1e21, enum: [0.5, 'x'], default: 0.5, examples: [0.5] } }, required: ['n'], additionalProperties: false };
    const shown = hostJsonSchema(schema, 'input');
    expect(shown).toEqual(schema);
    expect(shown['properties']).not.toBe(schema.properties);
  });
});
