import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/contract/check-contract.js';
import { freeToolName } from '../../src/contract/names.js';
import { applyEdits } from '../../src/source/edits.js';
import { LineMap, parseSourceText } from '../../src/source/parse.js';
import { exactRewrite } from '../../src/subset/rewrites.js';

/** The one diagnostic of a contract text, its rewrite, and the text once the rewrite is applied. */
function rewriteOnce(text: string) {
  const { diagnostics } = checkContract(text, 'contract.json');
  expect(diagnostics).toHaveLength(1);
  const diagnostic = diagnostics[0]!;
  const offset = new LineMap(text).offset(diagnostic.line, diagnostic.column);
  const rewrite = exactRewrite(text, parseSourceText(text).root, { code: diagnostic.code, pointer: diagnostic.pointer, offset });
  return { rewrite, fixed: rewrite === undefined ? text : applyEdits(text, rewrite.edits) };
}

const fixture = (path: string): string => readFileSync(`fixtures/${path}`, 'utf8');

describe('exact rewrites', () => {
  it.each([
    ['invalid/JTC101-comment.contract.json', 'remove the comment', '{\n  "name": "bad.example",'],
    ['invalid/JTC102-trailing-comma.contract.json', 'remove the trailing comma', '"required": ["a"] }'],
    ['quick-fixes/JTC104-const.contract.json', 'replace "const" with a one-member "enum"', '"version": { "enum": [2] }'],
    ['quick-fixes/JTC104-exclusive-minimum-on-integer.contract.json', 'replace "exclusiveMinimum" 0 with "minimum" 1 (the schema takes integers only)', '{ "type": "integer", "minimum": 1 }'],
    ['quick-fixes/JTC104-exclusive-maximum-on-integer.contract.json', 'replace "exclusiveMaximum" 100.5 with "maximum" 100 (the schema takes integers only)', '"minimum": 0, "maximum": 100 }'],
    ['quick-fixes/JTC110-one-element-type-array.contract.json', 'replace the one-element type array with "string"', '{ "type": "string", "maxLength": 64 }'],
    ['quick-fixes/JTC201-max-items-on-string.contract.json', 'remove "maxItems", which has no effect on this type', '"type": "string",\n        "maxLength": 10\n'],
  ])('%s: %s, and the result checks clean', (path, title, written) => {
    const { rewrite, fixed } = rewriteOnce(fixture(path));
    expect(rewrite?.title).toBe(title);
    expect(fixed).toContain(written);
    expect(checkContract(fixed, 'contract.json').diagnostics).toEqual([]);
  });

  it('offers nothing where no rewrite is exact', () => {
    for (const text of [
      fixture('invalid/JTC110-type-array.contract.json'),
      fixture('invalid/JTC104-pattern.contract.json'),
      fixture('quick-fixes/JTC104-exclusive-minimum-on-integer.contract.json').replace('"integer"', '"number"'),
      fixture('quick-fixes/JTC104-const.contract.json').replace('"const": 2', '"enum": [2], "const": 2'),
    ]) {
      expect(rewriteOnce(text).rewrite).toBeUndefined();
    }
  });

  it('rounds exclusive bounds to the integers inside them, exactly, whatever the notation', () => {
    const bound = (keyword: string, lexeme: string): string => {
      const text = `{"name": "a.b", "description": "d", "input": {"type": "integer", "${keyword}": ${lexeme}}, "output": {}}`;
      return JSON.parse(rewriteOnce(text).fixed).input;
    };
    expect(bound('exclusiveMinimum', '-0.5')).toEqual({ type: 'integer', minimum: 0 });
    expect(bound('exclusiveMinimum', '-1')).toEqual({ type: 'integer', minimum: 0 });
    expect(bound('exclusiveMinimum', '-1.5')).toEqual({ type: 'integer', minimum: -1 });
    expect(bound('exclusiveMaximum', '-1.5')).toEqual({ type: 'integer', maximum: -2 });
    expect(bound('exclusiveMaximum', '1e2')).toEqual({ type: 'integer', maximum: 99 });
    expect(bound('exclusiveMaximum', '25e-1')).toEqual({ type: 'integer', maximum: 2 });
    expect(bound('exclusiveMinimum', '1e-400')).toEqual({ type: 'integer', minimum: 1 });
    expect(JSON.parse(rewriteOnce(`{"name": "a.b", "description": "d", "input": {"type": "integer", "exclusiveMinimum": 18446744073709551615}, "output": {}}`).fixed.replace(/(\d{16,})/, '"$1"')).input.minimum).toBe('18446744073709551616');
  });

  it('removes a member wherever it stands in its object', () => {
    const warned = (members: string): string => rewriteOnce(`{"name": "a.b", "description": "d", "input": {${members}}, "output": {}}`).fixed;
    expect(warned('"minLength": 1, "type": "array"')).toContain('"input": {"type": "array"}');
    expect(warned('"type": "array", "minLength": 1')).toContain('"input": {"type": "array"}');
    expect(warned('"type": "array", "minLength": 1, "title": "t"')).toContain('"input": {"type": "array", "title": "t"}');
  });
});

describe('freeToolName', () => {
  it('appends the first free number, avoiding names, type names and case-insensitive files', () => {
    expect(freeToolName('shared.name', ['shared.name'])).toBe('shared.name_2');
    expect(freeToolName('shared.name', ['shared.name', 'shared.name_2'])).toBe('shared.name_3');
    expect(freeToolName('user.get_name', ['user.get-name', 'user.get-name-2', 'User.Get_name_3'])).toBe('user.get_name_4');
  });

  it('gives up when no valid name is left', () => {
    expect(freeToolName('a'.repeat(127), ['a'.repeat(127)])).toBeUndefined();
  });
});
