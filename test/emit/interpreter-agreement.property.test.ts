import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSourceText } from '../../src/source/parse.js';
import { evaluate } from '../../src/subset/evaluate.js';
import { f64Reading } from '../../src/subset/numeric-reading.js';
import { nearInstance, subsetSchema, type Schema } from '../support/arbitraries.js';
import { compileSchema, schemaIR } from '../support/load-module.js';

/**
 * One semantics drives every mode: the generated validators agree with the build-time meaning of
 * the same IR (the interpreter that judges defaults, examples and enum values) on every schema and
 * value, including the names ajv mishandles ("", __proto__, toString).
 */
describe('generated validators agree with the IR interpreter (property)', () => {
  it('on random subset schemas and values near them', () => {
    fc.assert(
      fc.property(
        subsetSchema().chain((schema) => fc.tuple(fc.constant(schema), fc.array(fc.oneof(nearInstance(schema), fc.jsonValue({ maxDepth: 3 })), { minLength: 15, maxLength: 15 }))),
        ([schema, values]: [Schema, unknown[]]) => {
          const text = JSON.stringify(schema);
          const ir = schemaIR(text);
          const validator = compileSchema(text);
          for (const value of values) {
            const json = JSON.stringify(value);
            const expected = evaluate(ir, parseSourceText(json).root!, f64Reading);
            const parsed: unknown = JSON.parse(json);
            expect({ json, is: validator.is(parsed) }).toEqual({ json, is: expected });
            expect(validator.validate(parsed).ok).toBe(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
