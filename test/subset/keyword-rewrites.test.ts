import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/contract/check-contract.js';
import type { DiagnosticCode } from '../../src/diagnostics/codes.js';
import { applyEdits } from '../../src/source/edits.js';
import { LineMap, parseSourceText } from '../../src/source/parse.js';
import { exactRewrite } from '../../src/subset/rewrites.js';

/** The rewrite for a diagnostic, as the editor asks for it. */
const at = (text: string, diagnostic: { code: DiagnosticCode; pointer: string; line: number; column: number }) => exactRewrite(text, parseSourceText(text).root, { code: diagnostic.code, pointer: diagnostic.pointer, offset: new LineMap(text).offset(diagnostic.line, diagnostic.column) });

const ajv = new Ajv2020({ strict: false, validateFormats: false });

const contractText = (input: unknown): string => JSON.stringify({ name: 'rewrite.case', description: 'A case.', input, output: {} }, null, 2);

/**
 * Applies the rewrite of the first error, as `jtc import` and the editor's quick fix do. The cases
 * put a scalar schema at the root, which a contract cannot have (JTC127, no rewrite for it): the
 * errors the keywords give are the ones rewritten.
 */
function rewriteFirst(input: unknown) {
  const text = contractText(input);
  const error = checkContract(text, 'case.contract.json').diagnostics.find((d) => d.severity === 'error' && d.code !== 'JTC127');
  const rewrite = error === undefined ? undefined : at(text, error);
  const rewritten = rewrite === undefined ? text : applyEdits(text, rewrite.edits);
  return { error, rewrite, input: (JSON.parse(rewritten) as { input: unknown }).input };
}

/** Applies rewrites until none is left; the contract must then check cleanly. */
function rewriteAll(input: unknown): { input: unknown; titles: string[] } {
  let current = input;
  const titles: string[] = [];
  for (let step = 0; step < 20; step++) {
    const { error, rewrite, input: next } = rewriteFirst(current);
    if (error === undefined) return { input: current, titles };
    if (rewrite === undefined) throw new Error(`no rewrite for ${error.code} at ${error.pointer}`);
    titles.push(rewrite.title);
    current = next;
  }
  throw new Error('rewrites did not end');
}

/** The rewritten schema accepts exactly what the original did, on values near every boundary. */
function expectSameVerdicts(before: unknown, after: unknown, values: readonly unknown[]): void {
  const [original, rewritten] = [ajv.compile(before as object), ajv.compile(after as object)];
  for (const value of values) expect([value, rewritten(value)]).toEqual([value, original(value)]);
}

describe('exact rewrites of keywords (the keyword table)', () => {
  it('exclusiveMinimum and exclusiveMaximum on an integer become the next integer inside, exactly', () => {
    const input = { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10.5 };
    const { input: result, titles } = rewriteAll(input);
    expect(result).toEqual({ type: 'integer', minimum: 1, maximum: 10 });
    expect(titles[0]).toBe('replace "exclusiveMinimum" 0 with "minimum" 1 (the schema takes integers only)');
    expectSameVerdicts(input, result, [-1, 0, 1, 2, 9, 10, 11, 10.5]);
    expect(rewriteAll({ type: 'integer', exclusiveMinimum: -2.5 }).input).toEqual({ type: 'integer', minimum: -2 });
    expect(rewriteAll({ type: 'integer', exclusiveMaximum: -2.5 }).input).toEqual({ type: 'integer', maximum: -3 });
    expect(rewriteAll({ type: 'integer', exclusiveMinimum: 1e3 }).input).toEqual({ type: 'integer', minimum: 1001 });
  });

  it('keeps the tighter of an exclusive and an inclusive bound on the same side', () => {
    expect(rewriteAll({ type: 'integer', minimum: 0, exclusiveMinimum: 4 }).input).toEqual({ type: 'integer', minimum: 5 });
    expect(rewriteAll({ type: 'integer', minimum: 7, exclusiveMinimum: 4 }).input).toEqual({ type: 'integer', minimum: 7 });
    expect(rewriteAll({ type: 'integer', exclusiveMaximum: 4, maximum: 2 }).input).toEqual({ type: 'integer', maximum: 2 });
  });

  it('keeps a bound past 2^53 exact', () => {
    const text = contractText({ type: 'integer', exclusiveMinimum: 1 }).replace('"exclusiveMinimum": 1', '"exclusiveMinimum": 18446744073709551615');
    const error = checkContract(text, 'x.contract.json').diagnostics[0]!;
    const rewrite = at(text, error)!;
    expect(applyEdits(text, rewrite.edits)).toContain('"minimum": 18446744073709551616');
  });

  it('refuses an exclusive bound on a number, or on a schema without "type": "integer"', () => {
    expect(rewriteFirst({ type: 'number', exclusiveMinimum: 0 }).rewrite).toBeUndefined();
    expect(rewriteFirst({ exclusiveMinimum: 0 }).rewrite).toBeUndefined();
  });

  it('const becomes a one-member enum, unless an enum is there already', () => {
    const input = { const: { a: [1, 'x'] } };
    expect(rewriteAll(input).input).toEqual({ enum: [{ a: [1, 'x'] }] });
    expectSameVerdicts(input, rewriteAll(input).input, [{ a: [1, 'x'] }, { a: [1] }, 1, null]);
    expect(rewriteFirst({ const: 1, enum: [1, 2] }).rewrite).toBeUndefined();
  });

  it('a one-element type array becomes its type; two types stay refused', () => {
    expect(rewriteAll({ type: ['object'], properties: { a: { type: ['string'] } } }).input).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(rewriteFirst({ type: ['string', 'null'] }).rewrite).toBeUndefined();
  });

  it('"additionalProperties": {} becomes true; any other schema stays refused', () => {
    expect(rewriteAll({ type: 'object', additionalProperties: {} }).input).toEqual({ type: 'object', additionalProperties: true });
    expect(rewriteFirst({ type: 'object', additionalProperties: { type: 'string' } }).rewrite).toBeUndefined();
  });

  it('annotations 2020-12 does not assert are kept as words in the description', () => {
    const input = { type: 'string', description: 'Where to go.', format: 'uri', deprecated: true, readOnly: false, $comment: 'legacy', contentMediaType: 'text/html', contentEncoding: 'base64', writeOnly: true };
    const { input: result, titles } = rewriteAll(input);
    expect(result).toEqual({ type: 'string', description: 'Where to go. (format: uri) (deprecated) (note: legacy) (media type: text/html) (encoding: base64) (write-only)' });
    expect(titles).toContain('move "format" "uri" into "description" as "format: uri" (it is not enforced)');
    expect(titles).toContain('remove "readOnly" false, which says nothing');
    expect(rewriteAll({ type: 'string', format: 'date' }).input).toEqual({ type: 'string', description: 'format: date' });
    expect(rewriteFirst({ type: 'string', format: 3 }).rewrite).toBeUndefined();
  });

  it('inlines local references that are not recursive, then drops the definitions', () => {
    const input = {
      type: 'object',
      properties: { home: { $ref: '#/$defs/address' }, work: { $ref: '#/definitions/address', description: 'At work.' } },
      $defs: { address: { type: 'object', properties: { city: { $ref: '#/$defs/city' } } }, city: { type: 'string', maxLength: 80 } },
      definitions: { address: { type: 'object', properties: { street: { type: 'string' } } } },
    };
    const { input: result } = rewriteAll(input);
    expect(result).toEqual({
      type: 'object',
      properties: {
        home: { type: 'object', properties: { city: { type: 'string', maxLength: 80 } } },
        work: { description: 'At work.', type: 'object', properties: { street: { type: 'string' } } },
      },
    });
    expectSameVerdicts(input, result, [{ home: { city: 'x' } }, { home: { city: 'x'.repeat(81) } }, { work: { street: 1 } }, {}]);
  });

  it('refuses a recursive reference, a reference elsewhere, and a keyword on both sides of a reference', () => {
    const tree = { type: 'object', properties: { node: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } } };
    expect(rewriteFirst(tree).rewrite).toBeUndefined();
    const mutual = { properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { properties: { b: { $ref: '#/$defs/b' } } }, b: { items: { $ref: '#/$defs/a' } } } };
    expect(rewriteFirst(mutual).rewrite).toBeUndefined();
    expect(rewriteFirst({ properties: { a: { $ref: '#' } } }).rewrite).toBeUndefined();
    expect(rewriteFirst({ properties: { a: { $ref: 'https://example.com/s.json' } } }).rewrite).toBeUndefined();
    expect(rewriteFirst({ properties: { a: { $ref: '#/properties/b' }, b: { type: 'string' } } }).rewrite).toBeUndefined();
    expect(rewriteFirst({ properties: { a: { $ref: '#/$defs/s', type: 'string' } }, $defs: { s: { type: 'string' } } }).rewrite).toBeUndefined();
  });

  it('keeps definitions something still refers to', () => {
    const input = { $defs: { s: { type: 'string' } }, properties: { a: { $ref: '#/$defs/s' } } };
    const { error, rewrite } = rewriteFirst(input);
    expect(error?.pointer).toBe('/input/$defs');
    expect(rewrite).toBeUndefined();
  });

  it('does not expand references without end', () => {
    // Each level refers to the one below twice: 2^24 copies of the leaf if expanded.
    const $defs: Record<string, unknown> = { d0: { type: 'string', description: 'x'.repeat(200) } };
    for (let level = 1; level <= 24; level++) $defs[`d${level}`] = { type: 'object', properties: { a: { $ref: `#/$defs/d${level - 1}` }, b: { $ref: `#/$defs/d${level - 1}` } } };
    const text = contractText({ $ref: '#/$defs/d24', $defs });
    let current = text;
    for (let step = 0; step < 200; step++) {
      const error = checkContract(current, 'x.contract.json').diagnostics.find((d) => d.code === 'JTC104' && d.pointer.endsWith('$ref'));
      const rewrite = error === undefined ? undefined : at(current, error);
      if (rewrite === undefined) break;
      current = applyEdits(current, rewrite.edits);
    }
    expect(current.length).toBeLessThan(10 * 32 * 1024);
  });

  it('applies only where a diagnostic stands at a keyword', () => {
    const text = contractText({ type: 'object', properties: { format: 'uri' } });
    const error = checkContract(text, 'x.contract.json').diagnostics[0]!;
    expect(error.code).toBe('JTC112');
    expect(at(text, error)).toBeUndefined();
  });
});
