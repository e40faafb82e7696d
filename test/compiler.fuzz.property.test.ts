import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileContracts, type Diagnostic } from '../src/compiler.js';
import { discoverContracts } from '../src/contract/discover.js';

/**
 * Compiler fuzzing (bounded, seeded by fast-check): whatever the bytes, `compileContracts` never
 * throws, and every input either compiles or gets at least one error diagnostic positioned inside
 * the file. Inputs: random bytes, byte mutations of the fixtures, and grammar-aware mutations that
 * put wrong types, extreme numbers, deep nesting, long strings, lone surrogates and duplicate keys
 * where keywords and annotations stand.
 */
const fixtures = [...discoverContracts(['fixtures/valid', 'fixtures/corpus', 'fixtures/warnings'])].map((file) => readFileSync(file));
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** 1-based lines and columns (UTF-16 units) that exist in the text; column may be one past a line's end. */
function insideFile(diagnostic: Diagnostic, text: string): boolean {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const line = lines[diagnostic.line - 1];
  return line !== undefined && diagnostic.column >= 1 && diagnostic.column <= line.length + 2;
}

function expectCompilesOrExplains(bytes: Uint8Array, exactNumbers: boolean): void {
  const text = decoder.decode(bytes);
  let result: ReturnType<typeof compileContracts>;
  try {
    result = compileContracts([{ file: 'fuzz.contract.json', text }], { exactNumbers });
  } catch (error) {
    throw new Error(`the compiler threw on ${JSON.stringify(text.slice(0, 300))}: ${String(error)}`);
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) expect(result.files.map((f) => f.path)).toContain('index.ts');
  else expect(result.files).toEqual([]);
  for (const diagnostic of result.diagnostics) {
    expect({ diagnostic, inside: insideFile(diagnostic, text) }).toEqual({ diagnostic, inside: true });
    expect(diagnostic.message.length).toBeGreaterThan(0);
  }
}

const mode = fc.boolean();

/** Replacements for a value anywhere in a contract: each has broken a compiler somewhere. */
const hostileValue = fc.oneof(
  fc.constantFrom('1e400', '-1e400', '1e-400', '1e99999999999999999999999', '-0.0', '1.0', '123456789012345678901234567890', '0.30000000000000000001', '9007199254740993'),
  fc.constantFrom('null', 'true', '"x"', '[]', '{}', '[1, "a", null]', '{"type": "string"}', '"\\uD800"', '"\\uDC00\\uD800"', '"*/ ${x} \\u2028"'),
  fc.integer({ min: 1, max: 400 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 1, max: 40 }).map((depth) => `${'{"type": "object", "properties": {"a": '.repeat(depth)}{}${'}}'.repeat(depth)}`),
  fc.integer({ min: 1000, max: 200_000 }).map((length) => JSON.stringify('é'.repeat(length))),
  fc.integer({ min: 1, max: 300 }).map((n) => `[${Array.from({ length: n }, (_, i) => JSON.stringify(`k${i % 7}`)).join(',')}]`),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);
const keyword = fc.constantFrom('type', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minimum', 'maximum', 'enum', 'default', 'examples', 'title', 'description', '$schema', '$id', 'name', 'pattern', '__proto__', '');

/** Each `"keyword": ` in the text is a place a grammar-aware mutation can put a hostile value. */
function mutateAtKey(text: string, key: string, value: string, occurrence: number, duplicate: boolean): string {
  const marker = `${JSON.stringify(key)}:`;
  const places: number[] = [];
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) places.push(at);
  if (places.length === 0) {
    const open = text.indexOf('{', text.indexOf('"input"'));
    return open < 0 ? text : `${text.slice(0, open + 1)}${marker} ${value},${text.slice(open + 1)}`;
  }
  const at = places[occurrence % places.length]!;
  if (duplicate) return `${text.slice(0, at)}${marker} ${value}, ${text.slice(at)}`;
  const start = at + marker.length;
  return `${text.slice(0, start)} ${value}${skipValue(text, start)}`;
}

/** The text after the JSON value that starts at `start` (a rough scan: strings, brackets). */
function skipValue(text: string, start: number): string {
  let depth = 0;
  let i = start;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 0) return text.slice(i + 1);
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return text.slice(i);
      depth--;
      if (depth === 0) return text.slice(i + 1);
    } else if (c === ',' && depth === 0) return text.slice(i);
  }
  return '';
}

describe('compiler fuzzing (property): never a throw, always a diagnostic inside the file', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), mode, (bytes, exact) => expectCompilesOrExplains(bytes, exact)),
      { numRuns: 300 },
    );
  });

  it('byte mutations of the fixtures', () => {
    const mutation = fc.record({ at: fc.nat(), kind: fc.constantFrom('flip', 'insert', 'delete', 'duplicate'), byte: fc.integer({ min: 0, max: 255 }) });
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), fc.array(mutation, { minLength: 1, maxLength: 4 }), mode, (original, mutations, exact) => {
        let bytes = Array.from(original);
        for (const { at, kind, byte } of mutations) {
          const i = at % Math.max(1, bytes.length);
          if (kind === 'flip') bytes[i] = byte;
          else if (kind === 'insert') bytes.splice(i, 0, byte);
          else if (kind === 'delete') bytes.splice(i, 1);
          else bytes = [...bytes.slice(0, i), ...bytes.slice(i, i + 40), ...bytes.slice(i)];
        }
        expectCompilesOrExplains(Uint8Array.from(bytes), exact);
      }),
      { numRuns: 250 },
    );
  });

  it('grammar-aware mutations: hostile values where keywords and annotations stand, duplicate keys', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), fc.array(fc.tuple(keyword, hostileValue, fc.nat(), fc.boolean()), { minLength: 1, maxLength: 3 }), mode, (original, edits, exact) => {
        let text = decoder.decode(original);
        for (const [key, value, occurrence, duplicate] of edits) text = mutateAtKey(text, key, value, occurrence, duplicate);
        expectCompilesOrExplains(encoder.encode(text), exact);
      }),
      { numRuns: 250 },
    );
  });

  it('annotations holding hostile values, which reach code generation: they compile or get a diagnostic', () => {
    const encoder = new TextEncoder();
    const annotation = fc.oneof(
      hostileValue.map((value) => `"default": ${value}`),
      hostileValue.map((value) => `"examples": [${value}]`),
      hostileValue.map((value) => `"enum": [${value}]`),
      fc.string({ maxLength: 40 }).map((text) => `"description": ${JSON.stringify(text)}`),
      fc.string({ maxLength: 40, unit: 'binary' }).map((text) => `"title": ${JSON.stringify(text)}`),
    );
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), fc.array(annotation, { minLength: 1, maxLength: 3 }), fc.nat(), mode, (original, annotations, occurrence, exact) => {
        const text = decoder.decode(original);
        const places: number[] = [];
        for (let at = text.indexOf('"type":'); at >= 0; at = text.indexOf('"type":', at + 1)) places.push(at);
        if (places.length === 0) return;
        const at = places[occurrence % places.length]!;
        expectCompilesOrExplains(encoder.encode(`${text.slice(0, at)}${annotations.join(', ')}, ${text.slice(at)}`), exact);
      }),
      { numRuns: 250 },
    );
  });
});

// No clock here (it would fail on a busy machine, and speed belongs to `npm run bench`): these inputs
// must get their diagnostic without a throw or a stack overflow, and a runaway step is caught by the test timeout.
describe('large inputs are checked, each with its diagnostic', () => {
  const contractWith = (input: string) => `{"name": "big.one", "description": "D.", "input": ${input}, "output": {}}`;
  const names = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `name${i}`));
  it.each([
    ['100,000 required names', contractWith(`{"type": "object", "required": ${names(100_000)}}`)],
    ['100,000 required names under a closed object', contractWith(`{"type": "object", "required": ${names(100_000)}, "additionalProperties": false}`)],
    ['a default object of 60,000 members checked against its schema', contractWith(`{"type": "object", "properties": {"a": {}}, "additionalProperties": false, "default": {${Array.from({ length: 60_000 }, (_, i) => `"k${i}": ${i}`).join(',')}}}`)],
    ['an enum of two 30,000-member objects', contractWith(`{"enum": [{${Array.from({ length: 30_000 }, (_, i) => `"k${i}": 1`).join(',')}}, {${Array.from({ length: 30_000 }, (_, i) => `"k${i}": 1`).join(',')}}]}`)],
    ['20,000 comments', `${'// note\n'.repeat(20_000)}${contractWith('{}')}`],
  ])('%s', (_, text) => {
    const result = compileContracts([{ file: 'big.contract.json', text }]);
    expect(result.diagnostics.length).toBeGreaterThan(0);
  });
});
