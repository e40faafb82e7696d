/**
 * Our own suite in the JSON-Schema-Test-Suite shape, for every keyword of the subset and the edges
 * the spec pins down. `data` may be a value that is not JSON at all: validators must reject it.
 */
export interface KeywordCase {
  readonly description: string;
  readonly schema: string;
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
}

class Point {
  constructor(readonly x = 1) {}
}
const sparse = [1, , 3];

export const keywordCases: readonly KeywordCase[] = [
  {
    description: 'integer: JSON integers, including 1.0 and 1e2, and only finite numbers',
    schema: '{"type": "integer"}',
    tests: [
      { description: '1', data: 1, valid: true },
      { description: '1.0 parses to an integer', data: JSON.parse('1.0'), valid: true },
      { description: '1e2', data: JSON.parse('1e2'), valid: true },
      { description: '-0 is the number 0', data: -0, valid: true },
      { description: '1.5', data: 1.5, valid: false },
      { description: 'NaN', data: NaN, valid: false },
      { description: 'Infinity', data: Infinity, valid: false },
      { description: 'bigint is not a JSON value in the default mode', data: 1n, valid: false },
      { description: 'numeric string', data: '1', valid: false },
      { description: 'boxed number', data: Object(1), valid: false },
    ],
  },
  {
    description: 'number: finite numbers only',
    schema: '{"type": "number"}',
    tests: [
      { description: '1.5', data: 1.5, valid: true },
      { description: '-Infinity', data: -Infinity, valid: false },
      { description: 'NaN', data: NaN, valid: false },
      { description: 'null', data: null, valid: false },
    ],
  },
  {
    description: 'minimum and maximum are inclusive',
    schema: '{"minimum": -1.5, "maximum": 2}',
    tests: [
      { description: 'below', data: -1.5000001, valid: false },
      { description: 'at minimum', data: -1.5, valid: true },
      { description: 'at maximum', data: 2, valid: true },
      { description: 'above', data: 2.0000001, valid: false },
      { description: 'non-numbers are not constrained', data: 'x', valid: true },
    ],
  },
  {
    description: 'default-mode bounds are the nearest f64 of their literal',
    schema: '{"maximum": 0.30000000000000000001}',
    tests: [
      { description: '0.3 equals the rounded bound', data: 0.3, valid: true },
      { description: 'the next double above is too big', data: 0.30000000000000004, valid: false },
    ],
  },
  {
    description: 'string length counts code points',
    schema: '{"type": "string", "minLength": 2, "maxLength": 3}',
    tests: [
      { description: 'one character', data: 'a', valid: false },
      { description: 'two emoji are two characters (four UTF-16 units)', data: '😀😀', valid: true },
      { description: 'three emoji: six units, three characters', data: '😀😀😀', valid: true },
      { description: 'four emoji', data: '😀😀😀😀', valid: false },
      { description: 'a lone surrogate counts as one', data: '\uD800a', valid: true },
      { description: 'one emoji is one character', data: '😀', valid: false },
      { description: 'combining marks count separately', data: 'e\u0301', valid: true },
    ],
  },
  {
    description: 'maxLength 0',
    schema: '{"maxLength": 0}',
    tests: [
      { description: 'empty', data: '', valid: true },
      { description: 'one', data: 'a', valid: false },
    ],
  },
  {
    description: 'enum uses JSON equality',
    schema: '{"enum": [1, "a", null, [1, {"b": true}], {"x": 1, "y": [2]}]}',
    tests: [
      { description: '1.0 equals 1', data: JSON.parse('1.0'), valid: true },
      { description: 'true is not 1', data: true, valid: false },
      { description: 'deep array', data: [1, { b: true }], valid: true },
      { description: 'object key order is ignored', data: { y: [2], x: 1 }, valid: true },
      { description: 'an extra key breaks equality', data: { x: 1, y: [2], z: 0 }, valid: false },
      { description: 'a class instance with the same fields is not equal', data: Object.assign(new Point(), { x: 1, y: [2] }), valid: false },
      { description: 'null', data: null, valid: true },
      { description: 'undefined', data: undefined, valid: false },
    ],
  },
  {
    description: 'enum of many strings (a Set lookup)',
    schema: `{"type": "string", "enum": ${JSON.stringify(Array.from({ length: 20 }, (_, i) => `v${i}`))}}`,
    tests: [
      { description: 'member', data: 'v13', valid: true },
      { description: 'not a member', data: 'v20', valid: false },
      { description: 'inherited names are not members', data: 'constructor', valid: false },
    ],
  },
  {
    description: 'required and properties use own properties only',
    schema: '{"type": "object", "properties": {"toString": {"type": "string"}, "__proto__": {"type": "number"}}, "required": ["toString", "constructor"]}',
    tests: [
      { description: 'own keys', data: JSON.parse('{"toString": "s", "constructor": 1, "__proto__": 2}'), valid: true },
      { description: 'inherited toString does not count', data: { constructor: 1 }, valid: false },
      { description: 'own __proto__ of the wrong type', data: JSON.parse('{"toString": "s", "constructor": 1, "__proto__": "x"}'), valid: false },
      { description: 'null prototype objects are plain', data: Object.assign(Object.create(null), { toString: 's', constructor: 1 }), valid: true },
    ],
  },
  {
    description: 'the empty string is a property name like any other',
    schema: '{"properties": {"": {"type": "number"}}, "required": [""]}',
    tests: [
      { description: 'missing', data: {}, valid: false },
      { description: 'present', data: { '': 1 }, valid: true },
      { description: 'wrong type', data: { '': 'x' }, valid: false },
    ],
  },
  {
    description: 'additionalProperties: false',
    schema: '{"type": "object", "properties": {"a": {}, "b": {}}, "additionalProperties": false}',
    tests: [
      { description: 'known keys', data: { a: 1, b: 2 }, valid: true },
      { description: 'unknown key', data: { a: 1, c: 2 }, valid: false },
      { description: '__proto__ as an own key is unknown', data: JSON.parse('{"__proto__": 1}'), valid: false },
      { description: 'empty', data: {}, valid: true },
    ],
  },
  {
    description: 'values that are not JSON are rejected wherever they appear',
    schema: '{"type": "object", "properties": {"a": {}}}',
    tests: [
      { description: 'undefined property value', data: { a: undefined }, valid: false },
      { description: 'function in an open object', data: { b: () => 1 }, valid: false },
      { description: 'Date', data: { a: new Date(0) }, valid: false },
      { description: 'Map', data: new Map(), valid: false },
      { description: 'class instance', data: new Point(), valid: false },
      { description: 'symbol', data: { a: Symbol('s') }, valid: false },
      { description: 'nested bigint', data: { a: [1n] }, valid: false },
      { description: 'sparse array', data: { a: sparse }, valid: false },
      { description: 'NaN deep inside', data: { z: { y: [NaN] } }, valid: false },
      { description: 'plain JSON', data: { a: [1, 'x', null, { b: false }] }, valid: true },
    ],
  },
  {
    description: 'items with bounds',
    schema: '{"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2}',
    tests: [
      { description: 'empty', data: [], valid: false },
      { description: 'two strings', data: ['a', 'b'], valid: true },
      { description: 'three', data: ['a', 'b', 'c'], valid: false },
      { description: 'wrong item', data: ['a', 1], valid: false },
      { description: 'hole in a sparse array', data: [, 'a'], valid: false },
      { description: 'typed array is not an array', data: new Uint8Array(1), valid: false },
    ],
  },
  {
    description: 'a schema without type accepts any JSON value',
    schema: '{}',
    tests: [
      { description: 'null', data: null, valid: true },
      { description: 'deep JSON', data: { a: [{ b: [1, 2, { c: 'd' }] }] }, valid: true },
      { description: 'undefined', data: undefined, valid: false },
      {
        description: 'a cycle',
        data: (() => {
          const a: Record<string, unknown> = {};
          a['self'] = a;
          return a;
        })(),
        valid: false,
      },
      { description: 'hostile depth', data: Array.from({ length: 100_000 }).reduce<unknown>((inner) => [inner], null), valid: false },
    ],
  },
  {
    description: 'a getter that throws or a revoked proxy cannot crash the validator',
    schema: '{"type": "object", "properties": {"a": {"type": "string"}}}',
    tests: [
      {
        description: 'throwing getter',
        data: Object.defineProperty({}, 'a', {
          get() {
            throw new Error('boom');
          },
          enumerable: true,
        }),
        valid: false,
      },
      {
        description: 'revoked proxy',
        data: (() => {
          const p = Proxy.revocable({}, {});
          p.revoke();
          return p.proxy;
        })(),
        valid: false,
      },
    ],
  },
  {
    description: 'null and boolean',
    schema: '{"type": "object", "properties": {"n": {"type": "null"}, "b": {"type": "boolean"}}}',
    tests: [
      { description: 'both right', data: { n: null, b: false }, valid: true },
      { description: 'null is not false', data: { n: false }, valid: false },
      { description: 'boxed boolean', data: { b: Object(true) }, valid: false },
    ],
  },
  {
    description: 'a name in "required" but not in "properties" is an additional property of a closed object: no object is valid (JTC206)',
    schema: '{"type": "object", "required": ["a"], "additionalProperties": false}',
    tests: [
      { description: 'the required name present', data: { a: [] }, valid: false },
      { description: 'the required name absent', data: {}, valid: false },
    ],
  },
  {
    description: 'the same without "type": objects still fail, other values pass',
    schema: '{"required": ["a"], "properties": {"b": {}}, "additionalProperties": false}',
    tests: [
      { description: 'the required name present', data: { a: 1, b: 2 }, valid: false },
      { description: 'a string is not an object', data: 'x', valid: true },
    ],
  },
  {
    description: 'an open object: a required name without a schema holds any JSON value',
    schema: '{"type": "object", "required": ["a"]}',
    tests: [
      { description: 'present', data: { a: [] }, valid: true },
      { description: 'present but undefined', data: { a: undefined }, valid: false },
      { description: 'present but not JSON', data: { a: () => 1 }, valid: false },
      { description: 'absent', data: { b: 1 }, valid: false },
    ],
  },
  {
    description: 'an object means its own enumerable properties, as Object.keys and JSON.stringify see them',
    schema: '{"type": "object", "properties": {"left": {"type": "integer"}, "right": {"type": "integer"}}, "required": ["left", "right"], "additionalProperties": false}',
    tests: [
      { description: 'plain', data: { left: 1, right: 2 }, valid: true },
      { description: 'a non-enumerable right standing in for an unexpected extra', data: Object.defineProperty({ left: 1, extra: 2 }, 'right', { value: 2, enumerable: false }), valid: false },
      { description: 'a non-enumerable right alone', data: Object.defineProperty({ left: 1 }, 'right', { value: 2, enumerable: false }), valid: false },
      { description: 'an enumerable getter is read as its value', data: Object.defineProperty({ left: 1 }, 'right', { get: () => 2, enumerable: true }), valid: true },
      { description: 'a symbol key is not part of the JSON value', data: { left: 1, right: 2, [Symbol('s')]: 3 }, valid: true },
      { description: 'a null-prototype object', data: Object.assign(Object.create(null), { left: 1, right: 2 }), valid: true },
      { description: 'a class instance', data: Object.assign(new Point(), { left: 1, right: 2 }), valid: false },
    ],
  },
  {
    description: 'an array is never an object, whatever its prototype',
    schema: '{"type": "object"}',
    tests: [
      { description: 'a null-prototype array', data: Object.setPrototypeOf([], null), valid: false },
      { description: 'an array', data: [], valid: false },
    ],
  },
  {
    description: 'a thrown value that cannot be turned into text still gives an issue',
    schema: '{"type": "object", "properties": {"a": {"type": "string"}}}',
    tests: [
      {
        description: 'a getter throwing a null-prototype object',
        data: Object.defineProperty({}, 'a', {
          get() {
            throw Object.create(null);
          },
          enumerable: true,
        }),
        valid: false,
      },
      {
        description: 'a getter throwing an object whose toString throws',
        data: Object.defineProperty({}, 'a', {
          get() {
            throw {
              toString() {
                throw 1;
              },
            };
          },
          enumerable: true,
        }),
        valid: false,
      },
    ],
  },
];
