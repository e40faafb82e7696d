import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { code, propertyKey, stringLiteral } from '../../src/codegen/code.js';

describe('the code builder', () => {
  it('writes every string as a literal that evaluates back to it and holds no raw line terminator', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const literal = stringLiteral(text);
        expect(JSON.parse(literal)).toBe(text);
        expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
        expect(literal).toBe(
          JSON.stringify(text)
            .replace(/\u2028/g, '\\u2028')
            .replace(/\u2029/g, '\\u2029'),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('interpolates values as literals, so user text cannot change the code around it', () => {
    const name = '"); process.exit(1); ("';
    expect(code`read(${name}, ${3}, ${null})`.text).toBe('read("\\"); process.exit(1); (\\"", 3, null)');
  });

  it('writes __proto__ as a computed key, so it names a property rather than the prototype', () => {
    expect(propertyKey('__proto__').text).toBe('["__proto__"]');
    expect(propertyKey('plain').text).toBe('plain');
    expect(propertyKey('with space').text).toBe('"with space"');
  });
});
