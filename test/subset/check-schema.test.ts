import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/contract/check-contract.js';

const check = (input: string, options = {}) => checkContract(`{"name":"t.t","description":"D.","input":${input},"output":{}}`, 'x', options);
const codes = (input: string) => check(input).diagnostics.map((d) => d.code);
/** A schema as the one property of an object root, where any type may stand (a root must be able to hold an object or an array). */
const inProperty = (schema: string) => `{"type": "object", "properties": {"v": ${schema}}}`;

describe('keyword values', () => {
  it.each([
    ['{"type": "float"}', 'JTC112'],
    ['{"type": ["string", "null"]}', 'JTC110'],
    ['{"minLength": -1}', 'JTC112'],
    ['{"minLength": 1.5}', 'JTC112'],
    ['{"maxItems": "3"}', 'JTC112'],
    ['{"maxItems": 1e300}', 'JTC112'],
    ['{"minimum": "0"}', 'JTC112'],
    ['{"required": "a"}', 'JTC112'],
    ['{"required": [1]}', 'JTC112'],
    ['{"required": ["a", "a"]}', 'JTC112'],
    ['{"enum": {}}', 'JTC112'],
    ['{"properties": []}', 'JTC112'],
    ['{"properties": {"a": 1}}', 'JTC112'],
    ['{"items": "string"}', 'JTC112'],
    ['{"items": false}', 'JTC111'],
    ['{"additionalProperties": "no"}', 'JTC112'],
    ['{"title": 1}', 'JTC112'],
    ['{"description": null}', 'JTC112'],
    ['{"examples": "x"}', 'JTC112'],
    ['{"$id": 1}', 'JTC112'],
    ['{"minimum": 1e400}', 'JTC117'],
    ['{"enum": [-1e999]}', 'JTC117'],
    ['{"default": 1e400}', 'JTC117'],
    ['{"examples": [[1, {"a": -1e400}]]}', 'JTC117'],
  ])('%s → %s', (schema, code) => {
    expect(codes(schema)).toEqual([code]);
  });

  it('names the one type of a one-element type array, and how to write it', () => {
    const [diagnostic] = check('{"type": ["object"]}').diagnostics;
    expect(diagnostic).toMatchObject({ code: 'JTC110', message: '"type" is an array of one type (object); the subset takes the type itself, as a string', hint: 'write "type": "object"' });
    expect(check('{"type": ["string", "null"]}').diagnostics[0]!.message).toBe('"type" lists several types (string, null); the subset takes exactly one');
    expect(check('{"type": ["strin"]}').diagnostics[0]).toMatchObject({ message: '"type" is an array of one value (strin), which is not a type', hint: 'write one of null, boolean, number, integer, string, array, object as a string' });
    expect(check('{"type": []}').diagnostics[0]).toMatchObject({ code: 'JTC110', message: '"type" is an empty array; the subset takes exactly one type' });
  });

  it.each(['{"minLength": 2.0}', '{"maxItems": 0}', '{"minimum": -0}', '{"maximum": 1e-400}', '{"default": {"any": [1]}, "examples": []}', '{"properties": {"$ref": {"type": "string"}}}'])('accepts %s', (schema) => {
    expect(codes(schema)).toEqual([]);
  });

  it('keeps annotations outside the f64 range in exact mode, where a module holds them exactly', () => {
    expect(check('{"default": 1e400, "examples": [-1e400]}', { exactNumbers: true }).diagnostics).toEqual([]);
  });

  it('keeps bounds as exact decimals', () => {
    const root = check(inProperty('{"type": "number", "minimum": 0.30000000000000000001}')).contract!.input;
    const ir = root.kind === 'object' ? root.rules.properties[0]!.schema : root;
    expect(ir.kind === 'number' && ir.rules.minimum?.value).toEqual({ negative: false, digits: '30000000000000000001', exponent: -20n });
  });

  it('accepts bounds beyond f64 with --exact-numbers', () => {
    expect(check('{"maximum": 1e400}', { exactNumbers: true }).diagnostics).toEqual([]);
  });
});

describe('unsupported keywords', () => {
  it.each(['pattern', 'format', '$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'const', 'exclusiveMinimum', 'multipleOf', 'uniqueItems', 'if', 'prefixItems', 'patternProperties', 'dependentRequired', '$comment', 'nullable'])('%s is rejected with advice', (keyword) => {
    const [diagnostic] = check(`{"${keyword}": 1}`).diagnostics;
    expect(diagnostic).toMatchObject({ code: 'JTC104', pointer: `/input/${keyword}` });
    expect(diagnostic!.message).toContain(`unsupported keyword "${keyword}"`);
    expect(diagnostic!.hint).toBeTruthy();
  });

  it('rejects unknown keywords too', () => {
    expect(check('{"colour": "red"}').diagnostics[0]!.message).toBe('unknown keyword "colour"');
  });

  it('finds unsupported keywords inside schemas the declared type makes inert', () => {
    expect(codes('{"type": "string", "properties": {"a": {"pattern": "x"}}}')).toEqual(['JTC201', 'JTC104']);
  });

  it('reports every problem, not just the first', () => {
    expect(codes('{"properties": {"a": {"pattern": "x"}, "b": {"type": ["null"]}}, "anyOf": []}')).toEqual(['JTC104', 'JTC110', 'JTC104']);
  });
});

describe('limits', () => {
  const nest = (levels: number): string => (levels === 1 ? '{}' : `{"items": ${nest(levels - 1)}}`);
  it('allows 32 levels and rejects 33, naming both figures', () => {
    expect(codes(nest(32))).toEqual([]);
    const [diagnostic] = check(nest(33)).diagnostics;
    expect(diagnostic).toMatchObject({ code: 'JTC114' });
    expect(diagnostic!.message).toContain('33 levels');
    expect(diagnostic!.message).toContain('limit is 32');
  });

  it('measures the schema size as UTF-8 bytes of compact JSON', () => {
    const padding = (bytes: number) => `{"description":"${'é'.repeat(bytes / 2)}"}`;
    const overhead = '{"description":""}'.length;
    expect(codes(padding(32 * 1024 - overhead))).toEqual([]);
    expect(codes(padding(32 * 1024 - overhead + 2))).toEqual(['JTC113']);
  });
});

describe('warnings', () => {
  it.each([
    ['{"type": "string", "minimum": 1}', 'JTC201'],
    ['{"type": "null", "items": {}}', 'JTC201'],
    ['{"minLength": 3, "maxLength": 2}', 'JTC202'],
    ['{"minItems": 3, "maxItems": 2}', 'JTC202'],
    ['{"type": "integer", "enum": [1, 1.5]}', 'JTC203'],
    ['{"type": "object", "required": ["a"], "enum": [{"b": 1}]}', 'JTC203'],
    ['{"enum": []}', 'JTC204'],
    ['{"enum": [{"a": 1, "b": 2}, {"b": 2, "a": 1.0}]}', 'JTC205'],
    ['{"enum": [0, "0", -0]}', 'JTC205'],
    ['{"enum": [[1e2], [100.0]]}', 'JTC205'],
    ['{"properties": {}, "required": ["x"], "additionalProperties": false}', 'JTC206'],
    ['{"type": "string", "examples": ["ok", 3]}', 'JTC207'],
    ['{"type": "array", "items": {"type": "integer"}, "default": [1, "2"]}', 'JTC207'],
  ])('%s → %s', (schema, code) => {
    const diagnostics = check(inProperty(schema)).diagnostics;
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([[code, 'warning']]);
  });

  it('compares rounded values in the default mode and exact ones with --exact-numbers', () => {
    const schema = '{"minimum": 0.30000000000000000002, "maximum": 0.30000000000000000001}';
    expect(codes(schema)).toEqual([]);
    expect(check(schema, { exactNumbers: true }).diagnostics.map((d) => d.code)).toEqual(['JTC202']);
  });
});
