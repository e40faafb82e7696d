import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { discoverContracts } from '../../src/contract/discover.js';
import { editorSchema } from '../../src/contract/editor-schema.js';
import { keywordTable } from '../../src/subset/keywords/index.js';
import { unsupportedAdvice } from '../../src/subset/keywords/unsupported.js';

/** The editor schema for *.contract.json, checked with ajv as an editor would apply it. */
const committed = JSON.parse(readFileSync('schema/contract.schema.json', 'utf8')) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true, strict: false }).compile(committed);

describe('schema/contract.schema.json', () => {
  it('is what the keyword table gives (regenerate with npm run editor-schema)', () => {
    expect(committed).toEqual(editorSchema());
  });

  it('names every keyword of the subset, and no other, with its meaning', () => {
    const schema = (committed['definitions'] as { schema: { properties: Record<string, { description?: string }> } }).schema;
    expect(Object.keys(schema.properties).sort()).toEqual([...keywordTable.keys()].sort());
    for (const entry of Object.values(schema.properties)) expect(entry.description?.length).toBeGreaterThan(10);
  });

  it.each(discoverContracts(['fixtures/valid', 'fixtures/corpus']))('accepts %s', (file) => {
    expect(validate(JSON.parse(readFileSync(file, 'utf8')))).toBe(true);
  });

  it.each(Object.keys(unsupportedAdvice))('underlines the unsupported keyword %s where it stands', (keyword) => {
    const contract = { name: 'a.b', description: 'D.', input: { type: 'object', properties: { q: { type: 'string', [keyword]: 1 } } }, output: {} };
    expect(validate(contract)).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: '/input/properties/q', keyword: 'additionalProperties', params: { additionalProperty: keyword } }));
  });

  it('underlines the keyword of the JTC104 fixture and an unknown contract field', () => {
    validate(JSON.parse(readFileSync('fixtures/invalid/JTC104-pattern.contract.json', 'utf8')));
    expect(validate.errors).toContainEqual(expect.objectContaining({ params: { additionalProperty: 'pattern' } }));
    validate(JSON.parse(readFileSync('fixtures/invalid/JTC121-unknown-field.contract.json', 'utf8')));
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: '', params: { additionalProperty: 'version' } }));
  });
});
