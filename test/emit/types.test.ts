import { describe, expect, it } from 'vitest';
import { checkContracts } from '../../src/contract/check-contracts.js';
import { emitTypes } from '../../src/emit/types.js';

/** The `Input` declaration of a contract whose input schema is `schema`. */
function inputType(schema: object, exactNumbers = false): string {
  const text = JSON.stringify({ name: 'types.case', description: 'd', input: schema, output: { type: 'object' } });
  const [contract] = checkContracts([{ file: 'types.case.contract.json', text }], { exactNumbers }).contracts;
  return emitTypes(contract!, 'TypesCase', exactNumbers).text.split('\n\n')[0]!;
}

describe('emitted types', () => {
  it('make a closed object an interface with required and optional members', () => {
    const schema = { type: 'object', properties: { id: { type: 'integer' }, note: { type: 'string' } }, required: ['id'], additionalProperties: false };
    expect(inputType(schema)).toBe(['/** Input of the `types.case` tool. */', 'export interface TypesCaseInput {', '  /** @integer */', '  id: number;', '  note?: string;', '}'].join('\n'));
  });

  it('parenthesise a union inside an array, so the array holds the union', () => {
    expect(inputType({ type: 'array', items: { enum: ['a', 'b'] } })).toContain('export type TypesCaseInput = ("a" | "b")[];');
    expect(inputType({ type: 'array', items: { type: 'integer' } }, true)).toContain('export type TypesCaseInput = (number | bigint)[];');
    expect(inputType({ type: 'array', items: { type: 'array', items: { type: 'string' } } })).toContain('export type TypesCaseInput = string[][];');
  });

  it('write enum members as literal types, arrays as tuples and objects on one line', () => {
    expect(inputType({ type: 'array', items: { enum: [null, true, -1.5, [1, 'x'], { kind: 'point' }, {}] } })).toContain('export type TypesCaseInput = (null | true | -1.5 | [1, "x"] | { kind: "point"; } | {})[];');
    expect(inputType({ enum: [] })).toContain('export type TypesCaseInput = never;');
  });

  it('type a root without "type" as what the runtime takes there, a JSON object or array', () => {
    expect(inputType({})).toBe(['/** Input of the `types.case` tool. */', 'export type TypesCaseInput = {', '  [key: string]: unknown;', '} | JsonValue[];'].join('\n'));
    expect(inputType({ properties: { id: { type: 'integer' } }, required: ['id'], items: { type: 'string' } })).toContain(['export type TypesCaseInput = {', '  /** @integer */', '  id: number;', '  [key: string]: unknown;', '} | string[];'].join('\n'));
    expect(inputType({ enum: [1, 'x', [1], { a: null }] })).toContain('export type TypesCaseInput = [1] | { a: null; };');
  });

  it('nest object literals one level deeper per object, with their comments', () => {
    const schema = { type: 'object', properties: { inner: { type: 'object', description: 'two\nlines', properties: { x: { type: 'null' } }, additionalProperties: false } }, additionalProperties: false };
    expect(inputType(schema)).toContain(['  /**', '   * two', '   * lines', '   */', '  inner?: {', '    x?: null;', '  };', '}'].join('\n'));
    expect(inputType({ type: 'object', properties: { empty: { type: 'object', additionalProperties: false } }, additionalProperties: false })).toContain('  empty?: {};');
  });

  it('quote names that are not identifiers and escape every literal and comment', () => {
    const name = 'a"b\\c*/\u2028';
    const type = inputType({ type: 'object', properties: { [name]: { enum: [name], description: 'ends */ here' } }, additionalProperties: false });
    expect(type).toContain('  /** ends *\\/ here */\n  "a\\"b\\\\c*/\\u2028"?: "a\\"b\\\\c*/\\u2028";');
    expect(type).not.toContain('\u2028');
  });
});
