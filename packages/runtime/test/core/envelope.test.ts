import { describe, expect, it } from 'vitest';
import { copyEnvelope, envelopeProblem } from '../../src/core/envelope.js';

class Point {
  x = 1;
}

describe('envelopeProblem', () => {
  it.each([
    ['an object', { a: [1, 'x', null, true, { b: 1.5 }] }],
    ['an array', [1, 2]],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { a: 1 })],
    ['prototype-polluting keys as own data', JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}}')],
    [
      'a shared (not cyclic) reference',
      (() => {
        const shared = { a: 1 };
        return { x: shared, y: shared };
      })(),
    ],
  ])('accepts %s', (_, value) => {
    expect(envelopeProblem(value)).toBeUndefined();
  });

  it.each([
    ['a string at the root', 'x', 'must be a JSON object or array'],
    ['a class instance at the root', new Point(), 'must be a JSON object or array'],
    ['undefined', { a: undefined }, '/a: undefined is not a JSON value'],
    ['NaN', { a: [NaN] }, '/a/0: NaN is not a JSON number'],
    ['Infinity', [Infinity], 'Infinity is not a JSON number'],
    ['a function', { f: () => 1 }, 'a function is not a JSON value'],
    ['a symbol value', { s: Symbol('s') }, 'is not a JSON value'],
    ['a symbol key', { [Symbol('s')]: 1 }, 'symbol-keyed'],
    ['a bigint', { n: 1n }, 'a bigint is not a JSON value'],
    ['a Date', { d: new Date(0) }, 'an instance of Date'],
    ['a Map', { m: new Map() }, 'an instance of Map'],
    ['a sparse array', { a: [1, , 3] }, 'holes'],
    ['an array with extra properties', { a: Object.assign([1], { extra: true }) }, 'extra properties'],
    ['an array with a symbol key', { a: Object.assign([1], { [Symbol('s')]: 1 }) }, 'extra properties'],
    ['an array with a non-enumerable extra property', { a: Object.defineProperty([1], 'hidden', { value: 1, enumerable: false }) }, 'extra properties'],
    ['a symbol key beside string keys', { a: 1, [Symbol('s')]: 2 }, 'symbol-keyed'],
    [
      'a getter (never invoked)',
      Object.defineProperty({}, 'a', {
        get: () => {
          throw new Error('invoked');
        },
        enumerable: true,
      }),
      '/a: accessor properties',
    ],
    ['a non-enumerable property', Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }), 'non-enumerable'],
    [
      'a cycle',
      (() => {
        const a: Record<string, unknown> = {};
        a['b'] = { c: a };
        return a;
      })(),
      '/b/c: cycle',
    ],
    [
      'a throwing proxy',
      new Proxy(
        {},
        {
          ownKeys() {
            throw new Error('trap');
          },
        },
      ),
      'could not be inspected',
    ],
  ])('rejects %s', (_, value, message) => {
    expect(envelopeProblem(value)).toContain(message);
  });

  it('copies objects in their key order (integer keys first, "__proto__" an own key) and arrays element by element', () => {
    const source = JSON.parse('{"b": [1, {"c": true}], "__proto__": {"d": null}, "2": "x", "a": "y"}') as Record<string, unknown>;
    const copy = copyEnvelope(source) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['2', 'b', '__proto__', 'a']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(source));
    expect(copy['b']).not.toBe(source['b']);
    expect(Array.isArray(copy['b'])).toBe(true);
  });

  it('bounds depth and size without recursion, so 100,000 levels cannot overflow the stack', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(envelopeProblem(deep)).toContain('nesting deeper than 256 levels');
    expect(envelopeProblem(deep, { maxDepth: 200_000, maxNodes: 1e9 })).toBeUndefined();
    expect(
      envelopeProblem(
        Array.from({ length: 11 }, () => 0),
        { maxDepth: 10, maxNodes: 10 },
      ),
    ).toContain('more than 10 values');
  });
});
