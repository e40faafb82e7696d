import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inferSchema, maxEnumValues } from '../../src/infer/infer-schema.js';
import { compileContract } from '../support/load-module.js';

/** The inferred schema as a contract's output, compiled: what `jtc build` would enforce. */
const validatorOf = (schema: Record<string, unknown>) => compileContract(JSON.stringify({ name: 'inferred.tool', description: 'Inferred.', input: { type: 'object' }, output: schema })).output;

describe('inferSchema', () => {
  it('types every value, integers where every number is whole, and requires the keys every sample has', () => {
    expect(
      inferSchema([
        { id: 1, name: 'a', score: 0.5 },
        { id: 2, name: 'b', score: 1 },
        { id: 3, name: 'c', score: 2, note: 'x' },
      ]),
    ).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' }, score: { type: 'number' }, note: { type: 'string' } },
      required: ['id', 'name', 'score'],
    });
  });

  it('closes an object only where every sample has the same keys', () => {
    expect(inferSchema([{ a: true }, { a: false }])).toEqual({ type: 'object', properties: { a: { type: 'boolean' } }, required: ['a'], additionalProperties: false });
    expect(inferSchema([{ a: true }, { a: false, b: null }])).toEqual({ type: 'object', properties: { a: { type: 'boolean' }, b: { type: 'null' } }, required: ['a'] });
  });

  it('makes an enum of a small set of strings seen more than once, and never of strings each seen once', () => {
    expect(inferSchema([{ kind: 'person' }, { kind: 'place' }, { kind: 'person' }])).toMatchObject({ properties: { kind: { type: 'string', enum: ['person', 'place'] } } });
    expect(inferSchema([{ kind: 'person' }, { kind: 'place' }])).toMatchObject({ properties: { kind: { type: 'string' } } });
    const many = Array.from({ length: maxEnumValues + 1 }, (_, i) => `v${i}`);
    expect(inferSchema([...many, ...many])).toEqual({ type: 'string' });
  });

  it('bounds arrays no tighter than the shortest seen, with items from every element', () => {
    expect(inferSchema([{ tags: ['a', 'b'] }, { tags: ['c'] }])).toMatchObject({ properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 1 } } });
    expect(inferSchema([[], [1]])).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(inferSchema([[]])).toEqual({ type: 'array' });
  });

  it('leaves the type out where the samples disagree (the subset has no type arrays)', () => {
    expect(inferSchema([{ v: 'a' }, { v: 1 }])).toMatchObject({ properties: { v: {} } });
  });

  it('keeps keys that are names of Object.prototype as ordinary keys', () => {
    const sample = JSON.parse('{"__proto__": 1, "constructor": "x"}') as unknown;
    const schema = inferSchema([sample]);
    expect(Object.keys((schema as { properties: object }).properties)).toEqual(['__proto__', 'constructor']);
    expect(validatorOf(schema).is(sample)).toBe(true);
  });

  it('accepts every sample it was inferred from, as a compiled contract', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom('a', 'b', 'c'),
        fc.string(),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom('x', 'y', 'z', '__proto__'), tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.constantFrom('id', 'kind', 'items', 'meta'), json, { maxKeys: 4 }), { minLength: 1, maxLength: 6 }), (samples) => {
        const parsed = samples.map((sample) => JSON.parse(JSON.stringify(sample)) as unknown);
        const validator = validatorOf(inferSchema(parsed));
        for (const sample of parsed) expect(validator.validate(sample)).toMatchObject({ ok: true });
      }),
      { numRuns: 60 },
    );
  });
});
