import { describe, expect, it } from 'vitest';
import { parseSourceBytes, parseSourceText } from '../../src/source/parse.js';
import type { JsonNode } from '../../src/source/json-node.js';

const codes = (text: string) => parseSourceText(text).diagnostics.map((d) => d.code);
const first = (text: string) => parseSourceText(text).diagnostics[0]!;

describe('byte order marks and size', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('ignores one leading BOM, from text and from bytes alike', () => {
    expect(parseSourceText('\uFEFF{}').diagnostics).toEqual([]);
    expect(parseSourceBytes(bytes('\uFEFF{}')).diagnostics).toEqual([]);
  });

  it('refuses a second BOM, from text and from bytes alike', () => {
    expect(codes('\uFEFF\uFEFF{}')).toEqual(['JTC100']);
    expect(parseSourceBytes(bytes('\uFEFF\uFEFF{}')).diagnostics.map((d) => d.code)).toEqual(['JTC100']);
  });

  it('applies the 1 MiB limit to text as to bytes, counting UTF-8 bytes', () => {
    const padded = (length: number, unit: string) => `{"a": "${unit.repeat(length)}"}`;
    expect(codes(padded(1024 * 1024, 'a'))).toEqual(['JTC107']);
    expect(codes(padded(400_000, 'é'.repeat(1)))).toEqual([]);
    expect(first(padded(400_000, '😀')).message).toBe(`file is ${400_000 * 4 + 9} bytes, more than the 1048576 bytes a contract file may have`);
  });
});

describe('parseSourceText', () => {
  it('keeps line, column and JSON Pointer for every value and key', () => {
    const { root } = parseSourceText('{\n  "a": [1, {"b/c": true}],\n  "d~": null\n}');
    expect(root?.kind).toBe('object');
    if (root?.kind !== 'object') return;
    const [a, d] = root.members;
    expect(a!.keyPosition).toMatchObject({ line: 2, column: 3 });
    expect(a!.value.pointer).toBe('/a');
    const inner = (a!.value as Extract<JsonNode, { kind: 'array' }>).items[1] as Extract<JsonNode, { kind: 'object' }>;
    expect(inner.members[0]!.value).toMatchObject({ pointer: '/a/1/b~1c', position: { line: 2, column: 20 } });
    expect(d!.value.pointer).toBe('/d~0');
  });

  it('keeps the exact lexeme of numbers', () => {
    const { root } = parseSourceText('[1.0, -0, 18446744073709551615, 0.30000000000000000001, 1e400]');
    expect(root?.kind === 'array' && root.items.map((n) => (n.kind === 'number' ? n.lexeme : ''))).toEqual(['1.0', '-0', '18446744073709551615', '0.30000000000000000001', '1e400']);
  });

  it('keeps lone surrogate escapes as the unit they name', () => {
    const { root, diagnostics } = parseSourceText('"\\uD800x"');
    expect(diagnostics).toEqual([]);
    expect(root).toMatchObject({ kind: 'string', value: '\uD800x' });
  });

  it('accepts and ignores a byte order mark', () => {
    const { root, diagnostics } = parseSourceText('\uFEFF{"a": 1}');
    expect(diagnostics).toEqual([]);
    expect(root?.position).toMatchObject({ line: 1, column: 2 });
  });

  it.each([
    ['{"a" 1}', 1, 6, 'expected ":"'],
    ['{"a": 01}', 1, 8, 'malformed number'],
    ['{"a": +1}', 1, 7, 'expected a JSON value'],
    ["{'a': 1}", 1, 2, 'double quotes'],
    ['{"a": "x', 1, 7, 'unterminated string'],
    ['{"a": "\t"}', 1, 8, 'control character'],
    ['{"a": "\\x"}', 1, 8, 'invalid escape'],
    ['{"a": 1} 2', 1, 10, 'after the end'],
    ['{"a": tru}', 1, 7, 'expected a JSON value'],
    ['', 1, 1, 'end of the file'],
  ])('rejects %j as JTC100 at %i:%i', (text, line, column, message) => {
    const diagnostic = first(text);
    expect(diagnostic).toMatchObject({ code: 'JTC100', position: { line, column } });
    expect(diagnostic.message).toContain(message);
  });

  it('reports comments and trailing commas, and keeps going to find more', () => {
    expect(codes('{\n // one\n "a": [1,],\n /* two */ "b": {"c": 1,}\n}')).toEqual(['JTC101', 'JTC102', 'JTC101', 'JTC102']);
  });

  it('reports a duplicate key with both positions and keeps the first value', () => {
    const { root, diagnostics } = parseSourceText('{"a": 1,\n "a": 2}');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'JTC103', position: { line: 2, column: 2 }, pointer: '/a' });
    expect(diagnostics[0]!.message).toContain('first defined at 1:2');
    expect(root?.kind === 'object' && root.members.map((m) => m.value)).toMatchObject([{ lexeme: '1' }]);
  });

  it('bounds nesting instead of overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(first(deep)).toMatchObject({ code: 'JTC100' });
    expect(first(deep).message).toContain('nesting deeper');
  });
});

describe('parseSourceBytes', () => {
  it('rejects invalid UTF-8 at the offending position', () => {
    const bytes = Buffer.concat([Buffer.from('{\n  "a": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    expect(parseSourceBytes(bytes).diagnostics[0]).toMatchObject({ code: 'JTC105', position: { line: 2, column: 12 } });
  });

  it.each([
    ['overlong encoding', [0xc0, 0xaf]],
    ['encoded surrogate', [0xed, 0xa0, 0x80]],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['truncated sequence', [0xe2, 0x82]],
  ])('rejects %s', (_, sequence) => {
    expect(parseSourceBytes(Buffer.from([0x22, ...sequence, 0x22])).diagnostics[0]?.code).toBe('JTC105');
  });

  it('decodes valid multi-byte UTF-8', () => {
    expect(parseSourceBytes(Buffer.from('"é😀"')).root).toMatchObject({ value: 'é😀' });
  });

  it('rejects files over 1 MiB before parsing them', () => {
    expect(parseSourceBytes(new Uint8Array(1024 * 1024 + 1)).diagnostics[0]?.code).toBe('JTC107');
  });
});
