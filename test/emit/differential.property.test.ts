import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearInstance, subsetSchema, type Schema } from '../support/arbitraries.js';
import { compileSchema, realIssueMessages } from '../support/load-module.js';

/**
 * Generated validators against ajv 2020 with `ownProperties: true`: on JSON values its semantics
 * are the spec's (code-point lengths, JSON equality for enum, own properties only), so any
 * disagreement is a bug in one of them, shown as a minimal counterexample.
 */
/**
 * ajv's deep equality also compares constructors, so a null-prototype object never equals an
 * object literal; JSON text has no prototypes, so both sides get the values as JSON.parse gives them.
 */
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Where ajv 8 is wrong, so differing is no evidence: it ignores `""` in `required` (accepting `{}`
 * for `{"required": [""]}`) and does not apply a `properties` entry named `__proto__`. The
 * keyword cases and the official suite cover both.
 */
function ajvMishandles(schema: Schema): boolean {
  if (Array.isArray(schema['required']) && schema['required'].includes('')) return true;
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  if (Object.hasOwn(properties, '__proto__')) return true;
  const children = [...Object.values(properties), ...(schema['items'] === undefined ? [] : [schema['items'] as Schema])];
  return children.some(ajvMishandles);
}

/** ajv's enum equality calls a value's own `toString` when it has one and throws when it is not a function. */
function ajvVerdict(validate: (value: unknown) => boolean, value: unknown): boolean | undefined {
  try {
    return validate(value);
  } catch {
    return undefined;
  }
}

const ajv = new Ajv2020({ strict: false, ownProperties: true, allErrors: false, validateFormats: false });

describe('differential: generated validators agree with ajv (property)', () => {
  it('on random subset schemas and values near them', () => {
    fc.assert(
      fc.property(
        subsetSchema(3, { nonEmptyEnum: true }).chain((schema) => fc.tuple(fc.constant(schema), fc.array(fc.oneof(nearInstance(schema), fc.jsonValue({ maxDepth: 3 })), { minLength: 20, maxLength: 20 }))),
        ([schema, values]: [Schema, unknown[]]) => {
          fc.pre(!ajvMishandles(schema));
          const ours = compileSchema(JSON.stringify(schema));
          const theirs = ajv.compile(asJson(schema));
          for (const value of values.map(asJson)) {
            const expected = ajvVerdict(theirs, value);
            if (expected === undefined) continue;
            expect({ value, is: ours.is(value) }).toEqual({ value, is: expected });
            const result = ours.validate(value);
            expect(result.ok).toBe(expected);
            realIssueMessages(result);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
