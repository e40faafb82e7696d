import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { mathAdd, notesSearch, type MathAddInput, type MathAddOutput, type NotesSearchOutput } from '../../examples/generated/index.js';

/**
 * The generated validators conform to the published Standard Schema and Standard JSON Schema v1
 * types: these assignments are checked by `npm run typecheck` (part of `npm test`).
 */
const input: StandardSchemaV1<MathAddInput> & StandardJSONSchemaV1<MathAddInput> = mathAdd.input;
const output: StandardSchemaV1<MathAddOutput> = mathAdd.output;
const hits: StandardSchemaV1<NotesSearchOutput> = notesSearch.output;

async function standardValidate<T>(schema: StandardSchemaV1<T>, value: unknown): Promise<StandardSchemaV1.Result<T>> {
  return schema['~standard'].validate(value);
}

describe('Standard Schema v1', () => {
  it('works through the published interface', async () => {
    expect(await standardValidate(input, { left: 1, right: 2 })).toEqual({ value: { left: 1, right: 2 } });
    const failure = await standardValidate(output, { total: 'x' });
    expect(failure.issues).toEqual([{ message: 'must be an integer, got string', path: ['total'] }]);
    expect(await standardValidate(hits, { hits: [] })).toEqual({ value: { hits: [] } });
    expect(input['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toEqual(mathAdd.inputSchema);
  });
});
