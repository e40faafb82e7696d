import { maxToolNameLength } from './names.js';
import { keywordTable } from '../subset/keywords/index.js';
import { limits } from '../subset/limits.js';

/**
 * A JSON Schema (draft-07, which editors support best) for `*.contract.json` files: the contract's
 * fields, and at every schema level exactly the subset's keywords, with their value types and what
 * they mean, so an editor completes keyword names, shows their meaning and underlines any other
 * keyword while the file is typed. Built from the keyword table; `schema/contract.schema.json` is
 * this value, written by `npm run build` and checked by a test.
 */
type Json = Record<string, unknown>;

const schemaRef = { $ref: '#/definitions/schema' };
const count = (description: string): Json => ({ type: 'integer', minimum: 0, description });

/** Every keyword of the table, with its value's schema and its meaning; a keyword missing here fails to compile. */
const keywordSchemas: Readonly<Record<string, Json>> = {
  type: { enum: ['null', 'boolean', 'number', 'integer', 'string', 'array', 'object'], description: 'The one JSON type of the value; absent: any JSON value. 1.0 and 1e2 are integers.' },
  enum: { type: 'array', maxItems: limits.enumValues, description: `The allowed values, compared by JSON equality (deep, key order ignored, 1 equals 1.0). At most ${limits.enumValues}.` },
  minLength: count('Strings: at least this many characters, counted in code points.'),
  maxLength: count('Strings: at most this many characters, counted in code points.'),
  minimum: { type: 'number', description: 'Numbers: at least this value (inclusive), compared exactly.' },
  maximum: { type: 'number', description: 'Numbers: at most this value (inclusive), compared exactly.' },
  minItems: count('Arrays: at least this many elements.'),
  maxItems: count('Arrays: at most this many elements.'),
  items: { ...schemaRef, description: 'Arrays: the schema of every element (one schema; tuples are outside the subset).' },
  properties: { type: 'object', maxProperties: limits.properties, additionalProperties: schemaRef, description: `Objects: the schema of each named own property. At most ${limits.properties}.` },
  required: { type: 'array', items: { type: 'string' }, uniqueItems: true, description: 'Objects: the own properties that must be present.' },
  additionalProperties: { type: 'boolean', description: 'Objects: false forbids properties not named in "properties"; absent means true. Only true or false.' },
  title: { type: 'string', description: 'A short name; kept in the generated JSDoc, never enforced.' },
  description: { type: 'string', description: 'What the value means, for people and models; kept in the generated JSDoc, never enforced.' },
  default: { description: 'A default value, kept as an annotation (@default); never enforced or filled in.' },
  examples: { type: 'array', description: 'Example values, kept as annotations (@example); never enforced.' },
  $schema: { type: 'string', description: 'An annotation naming a JSON Schema dialect; kept, never enforced.' },
  $id: { type: 'string', description: 'An annotation identifying the schema; kept, never enforced.' },
};

export function editorSchema(): Json {
  const keywords: Json = {};
  for (const keyword of keywordTable.keys()) {
    const schema = keywordSchemas[keyword];
    if (schema === undefined) throw new Error(`keyword "${keyword}" has no editor schema entry`);
    keywords[keyword] = schema;
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'JSON tool contract',
    description: 'One tool for json-tool-contracts: a name, a description, and the JSON Schema (a bounded subset of 2020-12) of its input and its output.',
    type: 'object',
    properties: {
      $schema: { type: 'string', description: 'Lets editors validate the file; ignored by jtc.' },
      name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]*(\\.[A-Za-z_][A-Za-z0-9_-]*)*$', maxLength: maxToolNameLength, description: 'The tool name: dot-separated segments of letters, digits, "_" and "-", each starting with a letter or "_". Unique across one build.' },
      description: { type: 'string', minLength: 1, pattern: '\\S', description: 'What the tool does: models read it to decide when to call the tool.' },
      input: { ...schemaRef, description: "The schema of the tool's input." },
      output: { ...schemaRef, description: "The schema of the tool's output." },
    },
    required: ['name', 'description', 'input', 'output'],
    additionalProperties: false,
    definitions: {
      schema: { type: 'object', description: 'A schema of the contract subset: only the keywords listed here are allowed.', properties: keywords, additionalProperties: false },
    },
  };
}
