import { describe, expect, it } from 'vitest';
import { descriptiveAnnotations, valueAnnotations } from '../../../src/subset/keywords/annotations.js';
import { documentingFamilies, keywordFamilies, keywordTable, ruleFamilies } from '../../../src/subset/keywords/index.js';
import { compileSchema } from '../../support/load-module.js';

/** The keyword table: each keyword in one family, and every validating keyword telling shapes apart. */
describe('the keyword table', () => {
  it('lists every keyword in exactly one family', () => {
    const listed = keywordFamilies.flatMap((family) => family.keywords.map((definition) => definition.keyword));
    expect(new Set(listed).size).toBe(listed.length);
    expect([...keywordTable.keys()]).toEqual(listed);
  });

  it('shows in JSDoc every family that has something to say there, each once', () => {
    expect(new Set(documentingFamilies).size).toBe(documentingFamilies.length);
    expect(new Set(documentingFamilies)).toEqual(new Set(keywordFamilies.filter((family) => family.docLines !== undefined)));
  });

  it('puts every keyword that applies to one type of value in the family that owns that type', () => {
    for (const definition of keywordTable.values()) {
      if (definition.group === 'all') continue;
      expect(ruleFamilies[definition.group].keywords).toContain(definition);
    }
  });

  /*
   * Schemas of one shape share one pair of functions, so a keyword missing from the shape key would
   * make two different schemas validate alike. Per validating keyword: two array or object schemas
   * that differ only in it, and a value the first accepts and the second refuses.
   */
  const wrap = (schema: Record<string, unknown>): Record<string, unknown> => ({ type: 'array', items: schema });
  const pairs: Readonly<Record<string, readonly [first: Record<string, unknown>, second: Record<string, unknown>, value: unknown]>> = {
    type: [wrap({ type: 'string' }), wrap({ type: 'integer' }), ['x']],
    enum: [wrap({ enum: ['a'] }), wrap({ enum: ['b'] }), ['a']],
    minLength: [wrap({ type: 'string', minLength: 1 }), wrap({ type: 'string', minLength: 2 }), ['x']],
    maxLength: [wrap({ type: 'string', maxLength: 2 }), wrap({ type: 'string', maxLength: 1 }), ['xx']],
    minimum: [wrap({ type: 'number', minimum: 0 }), wrap({ type: 'number', minimum: 1 }), [0]],
    maximum: [wrap({ type: 'number', maximum: 1 }), wrap({ type: 'number', maximum: 0 }), [1]],
    items: [{ type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'integer' } }, ['x']],
    minItems: [{ type: 'array', minItems: 0 }, { type: 'array', minItems: 1 }, []],
    maxItems: [{ type: 'array', maxItems: 1 }, { type: 'array', maxItems: 0 }, [1]],
    properties: [{ type: 'object', properties: { p: { type: 'string' } } }, { type: 'object', properties: { p: { type: 'integer' } } }, { p: 'x' }],
    required: [{ type: 'object', required: [] }, { type: 'object', required: ['p'] }, {}],
    additionalProperties: [{ type: 'object', additionalProperties: true }, { type: 'object', additionalProperties: false }, { q: 1 }],
  };
  const annotations = new Set([...descriptiveAnnotations.keywords, ...valueAnnotations.keywords].map((definition) => definition.keyword));

  it('has a pair below for every keyword that validates', () => {
    expect(Object.keys(pairs).sort()).toEqual([...keywordTable.keys()].filter((keyword) => !annotations.has(keyword)).sort());
  });

  it.each(Object.entries(pairs))('tells two schemas apart that differ only in "%s"', (_, [first, second, value]) => {
    for (const exactNumbers of [false, true]) {
      const validator = compileSchema(JSON.stringify({ type: 'object', properties: { first, second } }), { exactNumbers });
      expect(validator.is({ first: value })).toBe(true);
      expect(validator.is({ second: value })).toBe(false);
      expect(validator.validate({ second: value }).ok).toBe(false);
    }
  });
});
