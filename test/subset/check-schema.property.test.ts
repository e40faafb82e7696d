import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/contract/check-contract.js';
import { canonicalJson } from '../../src/ir/canonical.js';
import { schemaToJson } from '../../src/subset/to-json.js';
import { parseSourceText } from '../../src/source/parse.js';
import { subsetSchema, type Schema } from '../support/arbitraries.js';

/** `properties: {}` and `required: []` say nothing; the IR does not keep them. */
function withoutEmptyObjectKeywords(schema: Schema): Schema {
  const copy: Schema = { ...schema };
  const properties = copy['properties'] as Record<string, Schema> | undefined;
  if (properties !== undefined) {
    if (Object.keys(properties).length === 0) delete copy['properties'];
    else copy['properties'] = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, withoutEmptyObjectKeywords(v)]));
  }
  if (Array.isArray(copy['required']) && copy['required'].length === 0) delete copy['required'];
  if (copy['items'] !== undefined) copy['items'] = withoutEmptyObjectKeywords(copy['items'] as Schema);
  return copy;
}

/** The schema as the items of an array root, where any type may stand (a root must be able to hold an object or an array). */
const contractText = (items: Schema): string => JSON.stringify({ name: 'p.p', description: 'D.', input: { type: 'array', items }, output: {} }, null, 2);

describe('subset schemas (property)', () => {
  it('check without error, and their IR serialises back to the source', () => {
    fc.assert(
      fc.property(subsetSchema(), (schema) => {
        const result = checkContract(contractText(schema), 'p');
        expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const source = parseSourceText(JSON.stringify(withoutEmptyObjectKeywords(schema))).root!;
        const root = result.contract!.input;
        expect(canonicalJson(schemaToJson(root.kind === 'array' ? root.rules.items! : root))).toBe(canonicalJson(source));
      }),
      { numRuns: 300 },
    );
  });

  /** Single edits that each leave the subset. */
  const mutations: readonly ((schema: Schema) => Schema)[] = [
    (s) => ({ ...s, pattern: '^a' }),
    (s) => ({ ...s, $ref: '#/x' }),
    (s) => ({ ...s, anyOf: [{}] }),
    (s) => ({ ...s, const: 1 }),
    (s) => ({ ...s, type: ['string', 'null'] }),
    (s) => ({ ...s, type: 'float' }),
    (s) => ({ ...s, additionalProperties: { type: 'string' } }),
    (s) => ({ ...s, items: [{}] }),
    (s) => ({ ...s, items: true }),
    (s) => ({ ...s, minLength: -1 }),
    (s) => ({ ...s, maxItems: 'many' }),
    (s) => ({ ...s, required: [1] }),
    (s) => ({ ...s, properties: { a: false } }),
    (s) => ({ ...s, enum: 'a' }),
    (s) => ({ ...s, minimum: '0' }),
  ];

  /** Applies the mutation to one subschema, chosen by `pick` among all of them. */
  function mutateAt(schema: Schema, pick: number, mutation: (s: Schema) => Schema): Schema {
    const all: Schema[] = [];
    const collect = (s: Schema): void => {
      all.push(s);
      Object.values((s['properties'] ?? {}) as Record<string, Schema>).forEach(collect);
      if (s['items'] !== undefined) collect(s['items'] as Schema);
    };
    collect(schema);
    const target = all[pick % all.length]!;
    const rebuild = (s: Schema): Schema => {
      if (s === target) return mutation(s);
      const copy = { ...s };
      if (s['properties'] !== undefined) copy['properties'] = Object.fromEntries(Object.entries(s['properties'] as Record<string, Schema>).map(([k, v]) => [k, rebuild(v)]));
      if (s['items'] !== undefined) copy['items'] = rebuild(s['items'] as Schema);
      return copy;
    };
    return rebuild(schema);
  }

  it('are rejected after any single edit that leaves the subset, at a position inside the file', () => {
    fc.assert(
      fc.property(subsetSchema(), fc.nat(), fc.constantFrom(...mutations), (schema, pick, mutation) => {
        const text = contractText(mutateAt(schema, pick, mutation));
        const result = checkContract(text, 'p');
        const errors = result.diagnostics.filter((d) => d.severity === 'error');
        expect(errors.length).toBeGreaterThan(0);
        expect(result.contract).toBeUndefined();
        const lines = text.split('\n');
        for (const error of errors) {
          expect(error.line).toBeGreaterThanOrEqual(1);
          expect(error.line).toBeLessThanOrEqual(lines.length);
          expect(error.column).toBeGreaterThanOrEqual(1);
          expect(error.column).toBeLessThanOrEqual(lines[error.line - 1]!.length);
          expect(error.pointer.startsWith('/input')).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
