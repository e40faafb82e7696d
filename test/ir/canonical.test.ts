import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, compactJsonBytes, sha256Hex } from '../../src/ir/canonical.js';
import { equalityKey, jsonNodesEqual } from '../../src/ir/json-equality.js';
import { parseSourceText } from '../../src/source/parse.js';
import { exactReading, f64Reading } from '../../src/subset/numeric-reading.js';

const node = (text: string) => parseSourceText(text).root!;

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units, keeps number lexemes and drops whitespace', () => {
    expect(canonicalJson(node('{ "b": [1.0, 2e3], "a": {"z": null, "Z": "\\u00e9"}, "": true }'))).toBe('{"":true,"a":{"Z":"é","z":null},"b":[1.0,2e3]}');
  });

  it('is what the contract hash is taken of: formatting and key order do not change it', () => {
    expect(sha256Hex(canonicalJson(node('{"a":1,"b":2}')))).toBe(sha256Hex(canonicalJson(node('{\n  "b": 2,\n  "a": 1\n}'))));
  });

  it('measures the compact form the size limit counts: UTF-8 bytes without whitespace, numbers as written', () => {
    expect(compactJsonBytes(node('{ "b": 1.0, "a": [ 1 , 2 ], "é": "\\u00e9\\n" }'))).toBe(Buffer.byteLength('{"b":1.0,"a":[1,2],"é":"é\\n"}'));
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(compactJsonBytes(node(JSON.stringify(JSON.parse(text), null, 2)))).toBe(Buffer.byteLength(JSON.stringify(JSON.parse(text))));
      }),
      { numRuns: 500 },
    );
  });
});

describe('JSON equality', () => {
  it.each([
    ['1', '1.0', true],
    ['{"a": [1, {"b": 2}]}', '{"a": [1.0, {"b": 2e0}]}', true],
    ['{"a": 1, "b": 2}', '{"b": 2, "a": 1}', true],
    ['[1, 2]', '[2, 1]', false],
    ['0', '-0', true],
    ['true', '1', false],
    ['{"a": 1}', '{"a": 1, "b": 2}', false],
  ])('%s = %s is %s, and equal keys say the same', (a, b, equal) => {
    expect(jsonNodesEqual(node(a), node(b), exactReading)).toBe(equal);
    expect(equalityKey(node(a), exactReading) === equalityKey(node(b), exactReading)).toBe(equal);
  });

  it('compares numbers as the mode reads them', () => {
    const [a, b] = [node('0.30000000000000000001'), node('0.3')];
    expect(jsonNodesEqual(a, b, exactReading)).toBe(false);
    expect(jsonNodesEqual(a, b, f64Reading)).toBe(true);
  });
});
