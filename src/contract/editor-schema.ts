import { maxToolNameLength } from './names.js';
import { keywordTable } from '../subset/keywords/index.js';

/**
 * A JSON Schema (draft-07, which editors support best) for `*.contract.json` files: the contract's
 * fields, and at every schema level exactly the subset's keywords, with their value types and what
 * they mean, so an editor completes keyword names, shows their meaning and underlines any other
 * keyword while the file is typed. Built from the keyword table; `schema/contract.schema.json` is
 * this value, written by `npm run build` and checked by a test.
 */
type Json = Record<string, unknown>;

const schemaRef = { $ref: '#/definitions/schema' };

export function editorSchema(): Json {
  const keywords: Json = {};
  for (const [keyword, definition] of keywordTable) keywords[keyword] = definition.editor;
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
