import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileContracts } from '../../../../src/compiler.js';
import { CapabilityRuntime, JsonNumber, parseJson, stringifyJson, ToolMetadata, ToolPolicy } from '../../src/index.js';
import { exactNumber } from '../../src/core/json.js';
import { loadModule, type LoadedContract } from '../../../../test/support/load-module.js';
import { precisionTable as table } from '../support/precision-table.js';

type Mode = 'default' | 'exact';

function contractFor(keyword: 'minimum' | 'maximum', literal: string, mode: Mode): LoadedContract | string {
  const schema = `{"type": "object", "properties": {"x": {"type": "number", "${keyword}": ${literal}}}, "required": ["x"], "additionalProperties": false}`;
  const text = `{"name": "precision.check", "description": "Bound ${literal}.", "input": ${schema}, "output": ${schema}}`;
  const result = compileContracts([{ file: 'p.contract.json', text }], { exactNumbers: mode === 'exact' });
  const module = result.files.find((f) => f.path === 'precision.check.ts');
  return module === undefined ? result.diagnostics.map((d) => d.code).join() : loadModule<{ contract: LoadedContract }>(module.text).contract;
}

function runtimeFor(contract: LoadedContract): CapabilityRuntime {
  const runtime = new CapabilityRuntime();
  runtime.registerValidatedJsonTool(ToolPolicy.json('precision.check'), ToolMetadata.of('Echo.'), contract as never, (request) => request.input);
  return runtime;
}

describe.each(['default', 'exact'] as const)('the precision table, %s mode', (mode) => {
  it.each(table.map((r) => [r.row, r] as const))('%s', (_, row) => {
    const contract = contractFor(row.keyword, row.bound, mode);
    const expected = row[mode];
    if (expected === 'JTC117') {
      expect(contract).toMatch(/^JTC117(,JTC117)*$/);
      return;
    }
    if (typeof contract === 'string') throw new Error(contract);
    const runtime = runtimeFor(contract);
    row.values.forEach((text, i) => {
      const json = runtime.callJson('precision.check', `{"x": ${text}}`);
      expect({ text, accepted: json.ok }).toEqual({ text, accepted: expected[i] });
      // The same value as a JS value: what JSON.parse gives, or what the lossless parser gives.
      const value = mode === 'exact' ? exactNumber(text) : Number(text);
      expect({ text, accepted: contract.input.is({ x: value }) }).toEqual({ text, accepted: expected[i] });
      expect(runtime.call('precision.check', { x: value }).ok).toBe(expected[i]);
      if (json.ok && mode === 'exact') expect(json.output).toBe(`{"x":${stringifyJson(exactNumber(text))}}`);
    });
  });
});

describe('exact mode end to end', () => {
  const contract = contractFor('maximum', '18446744073709551615', 'exact') as LoadedContract;

  it('records the mode on the contract and in the header', () => {
    expect(contract.exactNumbers).toBe(true);
    const text = compileContracts([{ file: 'a.contract.json', text: '{"name":"a.b","description":"D.","input":{},"output":{}}' }], { exactNumbers: true }).files[0]!.text;
    expect(text).toMatch(/^\/\/ Numbers: exact/m);
  });

  it('hands the handler bigints and JsonNumbers, never rounded values, and writes them back unchanged', () => {
    const seen: unknown[] = [];
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedJsonTool(ToolPolicy.json('precision.check'), ToolMetadata.of('Echo.'), contract as never, (request) => {
      seen.push((request.input as { x: unknown }).x);
      return request.input;
    });
    expect(runtime.callJson('precision.check', '{"x": 18446744073709551615}')).toMatchObject({ ok: true, output: '{"x":18446744073709551615}' });
    expect(runtime.callJson('precision.check', '{"x": 0.30000000000000000001}')).toMatchObject({ ok: true, output: '{"x":0.30000000000000000001}' });
    expect(seen[0]).toBe(18446744073709551615n);
    expect(seen[1]).toBeInstanceOf(JsonNumber);
    expect(String(seen[1])).toBe('0.30000000000000000001');
  });

  it('treats 1, 1.0, 1n and JsonNumber("1.00") as one value for integer and enum', () => {
    const schema = '{"type": "integer", "enum": [1, 18446744073709551616]}';
    const text = `{"name":"e.e","description":"D.","input":{"type":"array","items":${schema}},"output":{}}`;
    const module = compileContracts([{ file: 'e.contract.json', text }], { exactNumbers: true }).files.find((f) => f.path === 'e.e.ts')!;
    const { contract: enumContract } = loadModule<{ contract: LoadedContract }>(module.text);
    expect(enumContract.input.is([1, 1n, new JsonNumber('1.00'), new JsonNumber('1e0'), 18446744073709551616n, new JsonNumber('1.8446744073709551616e19')])).toBe(true);
    expect(enumContract.input.is([2])).toBe(false);
    expect(enumContract.input.is([new JsonNumber('1.5')])).toBe(false);
    expect(enumContract.input.is([18446744073709551615n])).toBe(false);
  });

  it('compares signed zero by value in enum: -0.0 allows 0 in every representation', () => {
    const text = '{"name":"z.z","description":"D.","input":{"type":"array","items":{"enum":[-0.0]}},"output":{}}';
    const module = compileContracts([{ file: 'z.contract.json', text }], { exactNumbers: true }).files.find((f) => f.path === 'z.z.ts')!;
    const { contract: zero } = loadModule<{ contract: LoadedContract }>(module.text);
    expect(zero.input.is([0, -0, 0n, new JsonNumber('-0.0'), ...(parseJson('[0.0, -0.0]', { exactNumbers: true }) as unknown[])])).toBe(true);
    expect(zero.input.is([1e-300])).toBe(false);
  });

  it('recognises a JsonNumber by more than its brand: frozen, with own JSON number text', () => {
    const brand = Symbol.for('json-tool-contracts/JsonNumber');
    const fakes = [{ [brand]: true, decimal: '1' }, Object.freeze({ [brand]: true, decimal: 'not a number' }), Object.freeze(Object.defineProperty({ [brand]: true }, 'decimal', { get: () => '1', enumerable: true })), Object.freeze({ [brand]: true, decimal: 1 })];
    for (const fake of fakes) {
      expect(contract.input.is({ x: fake })).toBe(false);
      expect(runtimeFor(contract).call('precision.check', { x: fake }).ok).toBe(false);
    }
    expect(contract.input.is({ x: new JsonNumber('12') })).toBe(true);
  });

  it('accepts a 5,000-digit integer through callJson: no number is cut at some length', () => {
    const wide = contractFor('minimum', '0', 'exact') as LoadedContract;
    const result = runtimeFor(wide).callJson('precision.check', `{"x": ${'7'.repeat(5000)}}`);
    expect(result.ok && result.output).toBe(`{"x":${'7'.repeat(5000)}}`);
  });

  it('rejects bigints in the default mode, and numbers that overflow f64 in callJson text', () => {
    const plain = contractFor('maximum', '10', 'default') as LoadedContract;
    expect(plain.input.is({ x: 1n })).toBe(false);
    const result = runtimeFor(plain).callJson('precision.check', '{"x": 1e400}');
    expect(!result.ok && [result.error.code, result.error.message]).toEqual(['invalid_json', 'input for "precision.check" is not valid JSON: the number 1e400 is outside the range of a 64-bit float (contracts built with --exact-numbers keep it) at offset 6']);
  });
});

describe('parseJson and stringifyJson', () => {
  it('keeps a number as a number when that loses nothing, else as a bigint (digits only) or a JsonNumber', () => {
    expect(parseJson('[1, 1.0, 0.1, 1e21, -0, 9007199254740993, 9007199254740993.0, 1e400, 0.30000000000000000001, 1e-400]', { exactNumbers: true })).toEqual([
      1,
      1,
      0.1,
      1e21,
      0,
      9007199254740993n,
      new JsonNumber('9007199254740993'),
      new JsonNumber('1e400'),
      new JsonNumber('0.30000000000000000001'),
      new JsonNumber('1e-400'),
    ]);
  });

  it('keeps zero as the number 0 however it is written (0.0, -0, -0.0, 0e5)', () => {
    expect(parseJson('[0.0, -0.0, -0, 0e5, 1.0, 10.00e-1]', { exactNumbers: true })).toEqual([0, 0, 0, 0, 1, 1]);
  });

  it('makes a JsonNumber only of JSON number text, as JS writes numbers too', () => {
    expect([new JsonNumber('1e+21'), new JsonNumber('-1.50E2'), new JsonNumber('0.000')].map(String)).toEqual(['1e21', '-150', '0']);
    for (const text of ['.5', '1.', '01', '+1', '1e', '0x10', 'Infinity', '', ' 1']) expect(() => new JsonNumber(text), text).toThrow(SyntaxError);
  });

  it('reads a number of any length and writes huge exponents back as JSON', () => {
    const long = '9'.repeat(5000);
    expect(parseJson(long, { exactNumbers: true })).toBe(BigInt(long));
    expect(parseJson(`[${long}.5]`, { exactNumbers: true })).toEqual([new JsonNumber(`${long}.5`)]);
    const huge = stringifyJson(parseJson('[1e1000000000000000000000, -2.5E-1000000000000000000000]', { exactNumbers: true }));
    expect(huge).toBe('[1e1000000000000000000000,-2.5e-1000000000000000000000]');
    expect(JSON.parse(huge)).toEqual([Infinity, -0]);
  });

  it('parses like JSON.parse in the default mode, own __proto__ keys included', () => {
    const text = '{"a": [1, "x\\u00e9", null, true], "__proto__": {"b": 2}}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(Object.hasOwn(parseJson(text) as object, '__proto__')).toBe(true);
    expect(() => parseJson('{"a": 1,}')).toThrow(SyntaxError);
  });

  it('round-trips random exact numbers without loss', () => {
    fc.assert(
      fc.property(decimalLiteral, (literal) => {
        const parsed = parseJson(`[${literal}]`, { exactNumbers: true }) as unknown[];
        expect(new Decimal(stringifyJson(parsed[0])).equals(new Decimal(literal))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
/** JSON number literals of every size: up to 30 digits, exponents far beyond the f64 range. */
const decimalLiteral = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant('0'),
      fc.tuple(fc.constantFrom(...'123456789'), digits(0, 29)).map(([a, b]) => a + b),
    ),
    fc.option(digits(1, 25), { nil: undefined }),
    fc.option(fc.integer({ min: -450, max: 450 }), { nil: undefined }),
  )
  .map(([negative, integer, fraction, exponent]) => `${negative ? '-' : ''}${integer}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `e${exponent}`}`);

describe('exact comparisons (property)', () => {
  it('agree with decimal.js for random bound and value literals', () => {
    fc.assert(
      fc.property(decimalLiteral, decimalLiteral, fc.constantFrom('minimum' as const, 'maximum' as const), (bound, value, keyword) => {
        const contract = contractFor(keyword, bound, 'exact') as LoadedContract;
        const holds = keyword === 'minimum' ? new Decimal(value).greaterThanOrEqualTo(bound) : new Decimal(value).lessThanOrEqualTo(bound);
        expect(contract.input.is({ x: exactNumber(value) })).toBe(holds);
        expect(contract.input.is(parseJson(`{"x": ${value}}`, { exactNumbers: true }))).toBe(holds);
      }),
      { numRuns: 120 },
    );
  });

  it('take the native fast path only where it agrees: random doubles in exact mode compare as natively', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ noNaN: true, noDefaultInfinity: true }), (bound, value) => {
        const contract = contractFor('minimum', JSON.stringify(bound), 'exact') as LoadedContract;
        expect(contract.input.is({ x: value })).toBe(value >= bound);
        expect(contract.input.is({ x: new JsonNumber(JSON.stringify(value)) })).toBe(value >= bound);
      }),
      { numRuns: 120 },
    );
  });

  it('in the default mode equal the native comparison for random doubles', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ noNaN: true, noDefaultInfinity: true }), (bound, value) => {
        const contract = contractFor('maximum', JSON.stringify(bound), 'default') as LoadedContract;
        expect(contract.input.is({ x: value })).toBe(value <= bound);
      }),
      { numRuns: 120 },
    );
  });
});
