import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { helperCode, helperText, helperUses } from '../../src/codegen/helpers.js';
import { absenceNote } from '../../packages/runtime/src/support/absence-note.js';
import { codePointLength } from '../../packages/runtime/src/support/code-point-length.js';
import { compareDecimal } from '../../packages/runtime/src/support/compare-decimal.js';
import { copyJsonValue } from '../../packages/runtime/src/support/copy-json-value.js';
import { decimalKey } from '../../packages/runtime/src/support/decimal-key.js';
import { decimalOf } from '../../packages/runtime/src/support/decimal-of.js';
import { describeThrown } from '../../packages/runtime/src/support/describe-thrown.js';
import { describeType as describeExact } from '../../packages/runtime/src/support/describe-type.exact.js';
import { isJsonNumber } from '../../packages/runtime/src/support/is-json-number.js';
import { isJsonValue as isJsonValueDefault } from '../../packages/runtime/src/support/is-json-value.default.js';
import { isJsonValue as isJsonValueExact } from '../../packages/runtime/src/support/is-json-value.exact.js';
import { isPlainObject } from '../../packages/runtime/src/support/is-plain-object.js';
import { jsonEqual as jsonEqualDefault } from '../../packages/runtime/src/support/json-equal.default.js';
import { jsonEqual as jsonEqualExact } from '../../packages/runtime/src/support/json-equal.exact.js';
import { jsonNumber } from '../../packages/runtime/src/support/json-number.js';
import { compareDecimals, isJsonNumber as runtimeIsJsonNumber, JsonNumber, parseDecimal } from '../../packages/runtime/src/core/json.js';

/** The support code generated modules carry, tested as the ordinary functions it is. */
describe('support code', () => {
  it('isPlainObject: object literals and null-prototype objects, nothing else', () => {
    expect([{}, Object.create(null)].map(isPlainObject)).toEqual([true, true]);
    expect([[], Object.setPrototypeOf([], null), new Date(0), new (class {})(), null, 'x'].map(isPlainObject)).toEqual([false, false, false, false, false, false]);
  });

  it('absenceNote says why a required property that a plain read would find is missing', () => {
    const hidden = Object.defineProperty({}, 'a', { value: 1, enumerable: false });
    expect(absenceNote(hidden, 'a')).toContain('not enumerable');
    expect(absenceNote({ a: undefined }, 'a')).toContain('undefined');
    expect(absenceNote({}, 'a')).toBe('');
  });

  it('codePointLength counts code points, a lone surrogate as one (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\uD800', '\uDC00') }), (text) => {
        expect(codePointLength(text)).toBe([...text].length);
      }),
    );
  });

  it('isJsonValue: JSON values only; bigints and JsonNumbers in exact mode', () => {
    expect([null, 1, 's', [true], { a: [1] }].every((v) => isJsonValueDefault(v))).toBe(true);
    expect([undefined, Number.NaN, 1n, () => 1, new Date(0), [undefined]].some((v) => isJsonValueDefault(v))).toBe(false);
    expect([1n, new JsonNumber('1e400'), { a: 2n }].every((v) => isJsonValueExact(v))).toBe(true);
  });

  it('jsonEqual: deep, key order ignored, own enumerable keys; numbers by value in exact mode', () => {
    expect(jsonEqualDefault({ a: 1, b: [2] }, { b: [2], a: 1 })).toBe(true);
    expect(jsonEqualDefault(Object.defineProperty({ b: 1 }, 'a', { value: 1, enumerable: false }), { a: 1 })).toBe(false);
    expect(jsonEqualExact({ a: 1n }, { a: jsonNumber('1.0') })).toBe(true);
    expect(jsonEqualExact(-0, 0)).toBe(true);
  });

  it('decimalOf, decimalKey and compareDecimal order numbers exactly, as bigint arithmetic does (property)', () => {
    const parts = fc.tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,20})$/), fc.option(fc.stringMatching(/^[0-9]{1,10}$/), { nil: undefined }), fc.integer({ min: -40, max: 40 }));
    const text = ([negative, integer, fraction, exponent]: [boolean, string, string | undefined, number | bigint]): string => `${negative ? '-' : ''}${integer}${fraction === undefined ? '' : `.${fraction}`}e${exponent}`;
    // The reference: both values as integers over one power of ten, compared by bigint arithmetic.
    const scaled = ([negative, integer, fraction = '', exponent]: [boolean, string, string | undefined, number]): [bigint, number] => [(negative ? -1n : 1n) * BigInt(integer + fraction), exponent - fraction.length];
    const reference = (a: [bigint, number], b: [bigint, number]): number => {
      const low = Math.min(a[1], b[1]);
      const [x, y] = [a[0] * 10n ** BigInt(a[1] - low), b[0] * 10n ** BigInt(b[1] - low)];
      return x === y ? 0 : x < y ? -1 : 1;
    };
    fc.assert(
      fc.property(parts, parts, fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), (a, b, shift) => {
        const expected = reference(scaled(a), scaled(b));
        const [x, y] = [new JsonNumber(text(a)), new JsonNumber(text(b))];
        expect(compareDecimal(decimalOf(x), decimalOf(y))).toBe(expected);
        expect(decimalKey(x) === decimalKey(y)).toBe(expected === 0);
        // Exponents of any size: shifting both by the same power of ten keeps their order.
        const [far, farther] = [a, b].map(([negative, integer, fraction, exponent]) => new JsonNumber(text([negative, integer, fraction, BigInt(exponent) + shift])));
        expect(compareDecimal(decimalOf(far!), decimalOf(farther!))).toBe(expected);
        expect(compareDecimals(parseDecimal(far!.decimal)!, parseDecimal(farther!.decimal)!)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('copyJsonValue copies objects and arrays afresh, keeps "__proto__" as a key, shares the rest', () => {
    const leaf = new JsonNumber('1e400');
    const value = JSON.parse('{"__proto__": {"a": [1, {"b": 2}]}, "n": null}') as Record<string, unknown>;
    value['leaf'] = leaf;
    const copy = copyJsonValue(value);
    expect(copy).toEqual(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'n', 'leaf']);
    expect(copy['__proto__']).not.toBe(value['__proto__']);
    expect((copy['__proto__'] as { a: unknown[] }).a[1]).not.toBe((value['__proto__'] as { a: unknown[] }).a[1]);
    expect(copy['leaf']).toBe(leaf);
  });

  it('isJsonNumber recognises what the runtime does', () => {
    const brand = Symbol.for('json-tool-contracts/JsonNumber');
    for (const value of [new JsonNumber('1.5'), jsonNumber('2'), { [brand]: true, decimal: '1' }, Object.freeze({ [brand]: true, decimal: 'x' }), 1]) expect(isJsonNumber(value)).toBe(runtimeIsJsonNumber(value));
  });

  it('describeThrown gives text for anything thrown, also what String() cannot turn into text', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const throwingText = {
      toString() {
        throw new Error('no');
      },
    };
    expect([new TypeError('boom'), 'plain', 7, Object.create(null), throwingText, revoked.proxy].map(describeThrown)).toEqual(['boom', 'plain', '7', 'a value that cannot be turned into text', 'a value that cannot be turned into text', 'a value that cannot be turned into text']);
  });

  it('describeType names numbers by what they are in exact mode', () => {
    expect([describeExact(1n), describeExact(new JsonNumber('1.5')), describeExact(new JsonNumber('1e400'))]).toEqual(['integer', 'number', 'integer']);
  });

  it('reaches a module as its file without imports or exports, with what it uses derived from its text', () => {
    for (const exact of [false, true]) {
      const text = helperCode(['describeType', 'jsonEqual', 'compareDecimal'], exact).join('\n');
      expect(text).not.toMatch(/^(import|export) /m);
    }
    expect(helperUses('describeType', true)).toEqual(['isPlainObject', 'isJsonNumber', 'decimalOf']);
    expect(helperUses('compareDecimal', true)).toEqual(['decimalOf']);
    expect(helperText('isJsonValue', false)).not.toContain('bigint');
    expect(helperText('isJsonValue', true)).toContain('case "bigint":');
  });
});
