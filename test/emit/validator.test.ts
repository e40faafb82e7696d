import { describe, expect, it } from 'vitest';
import { compileContracts } from '../../src/compiler.js';
import { compileContract, compileSchema, realIssueMessages } from '../support/load-module.js';
import { keywordCases } from './keyword-cases.js';

describe('keyword cases: is and validate agree with the spec and with each other', () => {
  describe.each(keywordCases.map((c) => [c.description, c] as const))('%s', (_, group) => {
    const validator = compileSchema(group.schema);
    it.each(group.tests.map((t) => [t.description, t] as const))('%s', (__, test) => {
      expect(validator.is(test.data)).toBe(test.valid);
      const result = validator.validate(test.data);
      expect(result.ok).toBe(test.valid);
      if (!result.ok) expect(realIssueMessages(result).length).toBeGreaterThan(0);
      expect('issues' in validator['~standard'].validate(test.data)).toBe(!test.valid);
    });
  });
});

describe('validate: issues a person or a model can act on', () => {
  const validator = compileSchema(
    JSON.stringify({
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 64 },
        size: { type: 'integer', minimum: 1 },
        color: { type: 'string', enum: ['red', 'green'] },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string', maxLength: 3 } } } },
      },
      required: ['name', 'size'],
      additionalProperties: false,
    }),
  );

  it('reports every issue with pointers, keyword, message and params', () => {
    const result = validator.validate({ name: 'x'.repeat(70), colour: 'red', color: 'blue', items: [{ name: 'abcd' }] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.truncated).toBe(false);
    expect(result.issues.map(({ instancePath, schemaPath, keyword, message, params }) => ({ instancePath, schemaPath, keyword, message, params }))).toEqual([
      { instancePath: '/name', schemaPath: '#/properties/name/maxLength', keyword: 'maxLength', message: 'must have at most 64 characters, has 70', params: { limit: 64 } },
      { instancePath: '', schemaPath: '#/required', keyword: 'required', message: 'missing required property "size"', params: { missingProperty: 'size' } },
      { instancePath: '/color', schemaPath: '#/properties/color/enum', keyword: 'enum', message: 'must be one of "red", "green"', params: { allowedValues: ['red', 'green'] } },
      { instancePath: '/items/0/name', schemaPath: '#/properties/items/items/properties/name/maxLength', keyword: 'maxLength', message: 'must have at most 3 characters, has 4', params: { limit: 3 } },
      { instancePath: '/colour', schemaPath: '#/additionalProperties', keyword: 'additionalProperties', message: 'unexpected property "colour"; allowed: name, size, color, items', params: { additionalProperty: 'colour' } },
    ]);
    expect(result.issues[3]!.path).toEqual(['items', 0, 'name']);
  });

  it('says what it found instead of the expected type', () => {
    const result = validator.validate({ name: 1, size: 1.5 });
    expect(!result.ok && result.issues.map((i) => i.message)).toEqual(['must be string, got integer', 'must be an integer, got number']);
  });

  it('escapes JSON Pointer tokens', () => {
    const result = compileSchema('{"properties": {"a/b~c": {"type": "string"}}}').validate({ 'a/b~c': 1 });
    expect(!result.ok && result.issues[0]).toMatchObject({ instancePath: '/a~1b~0c', schemaPath: '#/properties/a~1b~0c/type', path: ['a/b~c'] });
  });

  it('caps the issues at 100 and says so', () => {
    const result = compileSchema('{"type": "array", "items": {"type": "string"}}').validate(Array.from({ length: 500 }, () => 0));
    expect(!result.ok && [result.issues.length, result.truncated]).toEqual([100, true]);
  });

  it('returns the value itself on success', () => {
    const value = { name: 'n', size: 2 };
    expect(validator.validate(value)).toEqual({ ok: true, value });
  });
});

describe("'~standard'", () => {
  const contract = compileContract(JSON.stringify({ $schema: 'x', name: 'a.b', description: 'D.', input: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } } }, output: { type: 'integer' } }));
  const standard = contract.input['~standard'];

  it('is Standard Schema v1 and never throws', () => {
    expect(standard.version).toBe(1);
    expect(standard.vendor).toBe('json-tool-contracts');
    expect(standard.validate({ a: 'x' })).toEqual({ value: { a: 'x' } });
    expect('issues' in standard.validate({ a: 'x' })).toBe(false);
    expect(standard.validate({ a: [1] })).toEqual({ issues: [{ message: 'must be string, got array', path: ['a'] }] });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(() => standard.validate(revoked.proxy)).not.toThrow();
  });

  it('gives a fresh, unfrozen copy of the JSON Schema for 2020-12 and draft-07, and throws for others', () => {
    const first = standard.jsonSchema.input({ target: 'draft-2020-12' });
    expect(first).toEqual(contract.inputSchema);
    expect(first).not.toBe(contract.inputSchema);
    first['type'] = 'changed';
    expect(Object.isFrozen(first)).toBe(false);
    expect(standard.jsonSchema.input({ target: 'draft-2020-12' })['type']).toBe('object');
    expect(standard.jsonSchema.output({ target: 'draft-07' })['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(() => standard.jsonSchema.input({ target: 'openapi-3.0' })).toThrow(/unsupported JSON Schema target/);
  });
});

describe('schemas of one shape share their functions', () => {
  const person = (description: string, maxLength = 20) => ({ type: 'object', description, properties: { login: { type: 'string', maxLength } }, required: ['login'], additionalProperties: false });
  const contract = JSON.stringify({
    name: 'shapes.shared',
    description: 'Two people of one shape, one of another.',
    input: { type: 'object', properties: { author: person('Who wrote it.'), reviewers: { type: 'array', items: person('Who reviewed it.') }, bot: person('A bot.', 5) } },
    output: { type: 'object', properties: { merger: person('Who merged it.') } },
  });
  const source = compileContracts([{ file: 'shapes.shared.contract.json', text: contract }]).files.find((f) => f.path !== 'index.ts')!.text;
  const { input, output } = compileContract(contract);

  it('emits one check/collect pair for every schema of a shape, across input and output', () => {
    expect(source.match(/^function check/gm)).toHaveLength(5); // input, output, the reviewers array, the person, the bot
    expect(source).toContain('// #/properties/author (and 2 more schemas of this shape)');
    expect(source.match(/^function collect\w+\(value: unknown, path: PathSegment\[\], pointer: string, issues: ValidationIssue\[\], schemaPath: string\): void \{/gm)).toHaveLength(5);
    // A different bound is a different shape, whatever the annotations say.
    expect(source).toMatch(/^\/\/ #\/properties\/bot$/m);
  });

  it('reports each issue at the schema it came from', () => {
    const wrong = { author: { login: 1 }, reviewers: [{ login: 'ok' }, {}], bot: { login: 'too long' } };
    const result = input.validate(wrong);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.issues.map((i) => [i.instancePath, i.schemaPath])).toEqual([
      ['/author/login', '#/properties/author/properties/login/type'],
      ['/reviewers/1', '#/properties/reviewers/items/required'],
      ['/bot/login', '#/properties/bot/properties/login/maxLength'],
    ]);
    const merged = output.validate({ merger: { login: 'x', extra: true } });
    expect(merged.ok ? [] : merged.issues.map((i) => [i.instancePath, i.schemaPath])).toEqual([['/merger/extra', '#/properties/merger/additionalProperties']]);
  });
});

describe('a value is judged as what it means as JSON, and a failure says why', () => {
  it('a polluted Object.prototype neither fails a valid object nor satisfies a required property', () => {
    const open = compileSchema('{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}');
    const needsZzz = compileSchema('{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a", "zzz"]}');
    const closed = compileSchema('{"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": false}');
    const prototype = Object.prototype as Record<string, unknown>;
    prototype['zzz'] = 1;
    try {
      expect([open.is({ a: 1 }), open.validate({ a: 1 }).ok, closed.is({ a: 1 }), closed.validate({ a: 1 }).ok]).toEqual([true, true, true, true]);
      expect(needsZzz.is({ a: 1 })).toBe(false);
      expect(realIssueMessages(needsZzz.validate({ a: 1 }))).toEqual(['missing required property "zzz" (only Object.prototype has it; an inherited property is not part of the value as JSON)']);
    } finally {
      delete prototype['zzz'];
    }
  });

  it('a polluted Object.prototype satisfies no required property of an array item either (the issue pass collects only failing items)', () => {
    const list = compileSchema('{"type": "object", "properties": {"list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a", "zzz"]}}}, "required": ["list"]}');
    const prototype = Object.prototype as Record<string, unknown>;
    prototype['zzz'] = 1;
    try {
      expect(list.is({ list: [{ a: 1 }] })).toBe(false);
      const result = list.validate({ list: [{ a: 1, zzz: 2 }, { a: 1 }] });
      expect(result.ok ? [] : result.issues.map((i) => [i.instancePath, i.message])).toEqual([['/list/1', 'missing required property "zzz" (only Object.prototype has it; an inherited property is not part of the value as JSON)']]);
    } finally {
      delete prototype['zzz'];
    }
    expect(list.is({ list: [{ a: 1, zzz: 2 }] })).toBe(true);
  });

  it('a non-enumerable property is reported missing, with the reason', () => {
    const validator = compileSchema('{"type": "object", "properties": {"left": {"type": "integer"}, "right": {"type": "integer"}}, "required": ["left", "right"], "additionalProperties": false}');
    const value = Object.defineProperty({ left: 1, extra: 2 }, 'right', { value: 2, enumerable: false });
    expect(realIssueMessages(validator.validate(value))).toEqual(['missing required property "right" (the object\'s own property is not enumerable, so it is not part of the value as JSON)', 'unexpected property "extra"; allowed: left, right']);
  });

  it('a required name that a closed object does not declare is reported where it stands', () => {
    const validator = compileSchema('{"type": "object", "required": ["a"], "additionalProperties": false}');
    expect(realIssueMessages(validator.validate({ a: [] }))).toEqual(['unexpected property "a"; no properties are allowed']);
    expect(realIssueMessages(validator.validate({}))).toEqual(['missing required property "a"']);
  });

  it('stops reading an object once more issues than a result keeps are found', () => {
    const validator = compileSchema('{"type": "object", "additionalProperties": true}');
    let reads = 0;
    const value: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) Object.defineProperty(value, `k${i}`, { get: () => (reads++, undefined), enumerable: true });
    const result = validator.validate(value);
    expect(!result.ok && [result.issues.length, result.truncated]).toEqual([100, true]);
    expect(reads).toBeLessThan(110);
  });
});
