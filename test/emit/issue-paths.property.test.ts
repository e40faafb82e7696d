import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearInstance, subsetSchema, type Schema } from '../support/arbitraries.js';
import { compileSchema, type Issue } from '../support/load-module.js';

const unescapeToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * Reads an issue's schema path as the walk it describes: `properties/<name>` and `items` steps into
 * sub-schemas, then at most one keyword. Returns the steps and the keyword, or why it does not parse.
 */
function schemaWalk(schemaPath: string): { steps: (string | typeof itemStep)[]; keyword?: string } | string {
  if (!schemaPath.startsWith('#')) return `does not start with #: ${schemaPath}`;
  const tokens = schemaPath === '#' ? [] : schemaPath.slice(2).split('/').map(unescapeToken);
  const steps: (string | typeof itemStep)[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === 'properties' && i + 1 < tokens.length) steps.push(tokens[++i]!);
    else if (tokens[i] === 'items') steps.push(itemStep);
    else if (i === tokens.length - 1) return { steps, keyword: tokens[i]! };
    else return `keyword ${tokens[i]} before the end of ${schemaPath}`;
  }
  return { steps };
}
const itemStep = Symbol('item');

/** The sub-schema a walk reaches in the exported schema, or undefined. */
function reach(schema: Schema, steps: readonly (string | typeof itemStep)[]): Schema | undefined {
  let at: Schema | undefined = schema;
  for (const step of steps) {
    if (at === undefined) return undefined;
    const next: unknown = step === itemStep ? at['items'] : Object.hasOwn((at['properties'] ?? {}) as object, step) ? (at['properties'] as Record<string, unknown>)[step] : undefined;
    at = typeof next === 'object' && next !== null ? (next as Schema) : undefined;
  }
  return at;
}

/** Keywords reported at the key they are about, one level below the schema that holds them. */
const reportedAtTheKey = new Set(['additionalProperties', 'properties']);

function pathProblem(issue: Issue, schema: Schema): string | undefined {
  const walk = schemaWalk(issue.schemaPath);
  if (typeof walk === 'string') return walk;
  if (reach(schema, walk.steps) === undefined) return `${issue.schemaPath} names no schema of the contract`;
  const below = walk.keyword !== undefined && reportedAtTheKey.has(walk.keyword) ? 1 : 0;
  // The pointer is kept as the pass descends, apart from the path array: both must name one place.
  const pointer = issue.path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  if (issue.instancePath !== pointer) return `${issue.instancePath} is not the JSON Pointer of ${JSON.stringify(issue.path)}`;
  if (issue.path.length !== walk.steps.length + below) return `${issue.instancePath} is not where ${issue.schemaPath} applies`;
  const mismatch = walk.steps.findIndex((step, i) => (step === itemStep ? typeof issue.path[i] !== 'number' : issue.path[i] !== step));
  return mismatch < 0 ? undefined : `${issue.instancePath} does not follow ${issue.schemaPath} at step ${mismatch}`;
}

/**
 * Every issue names the schema it came from, even where schemas of one shape share their
 * functions: its schema path is a walk through the exported schema that the issue's instance path
 * follows step by step, and its `instancePath` is the JSON Pointer of its `path`.
 */
describe('issue paths (property)', () => {
  // One random sub-schema used in three places guarantees that shapes are shared.
  const repeated = subsetSchema(2).map((part): Schema => ({ type: 'object', properties: { first: part, second: { ...part, description: 'the same shape' }, list: { type: 'array', items: part } } }));

  it('point into the schema and the value consistently, on random schemas and on repeated shapes', () => {
    fc.assert(
      fc.property(
        fc.oneof(subsetSchema(), repeated).chain((schema) => fc.tuple(fc.constant(schema), fc.array(nearInstance(schema), { minLength: 10, maxLength: 10 }))),
        ([schema, values]: [Schema, unknown[]]) => {
          const validator = compileSchema(JSON.stringify(schema));
          const exported = validator['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
          for (const value of values) {
            const result = validator.validate(value);
            if (result.ok) continue;
            for (const issue of result.issues) expect({ issue, problem: pathProblem(issue, exported) }).toEqual({ issue, problem: undefined });
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
