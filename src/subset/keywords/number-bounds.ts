import { Code, code } from '../../codegen/code.js';
import type { DecimalBound } from '../../ir/schema-node.js';
import { compareDecimals, parseDecimal, roundTripsThroughF64 } from '@json-tool-contracts/runtime/internal';
import { decimalKeyword, type RuleFamily } from '../keyword.js';
import type { EmitContext, EmittedCheck } from '../emission.js';
import { boundParts, type BoundKeyword } from './bounds.js';

/**
 * The comparison `value <op> bound` is false when the value breaks the bound.
 *
 * Default mode: the bound is the nearest f64 of its literal, exactly as JSON.parse rounds the
 * value, so the native comparison is the specified one.
 *
 * Exact mode: a JS number counts as the decimal JSON.stringify writes for it (its shortest
 * round-trip digits), a bigint or JsonNumber as its exact value. When the bound's literal round-trips
 * through f64 and the value is a JS number, the native comparison gives the same answer: shortest
 * round-trip digits are ordered exactly as the doubles they denote, and the bound's digits are
 * those of its own double. Otherwise the digits are compared (`compareDecimal`).
 */
function emitBound(bound: DecimalBound, value: Code, context: EmitContext, nativeFails: (f64: Code) => Code, failsWhen: '< 0' | '> 0', relation: string): EmittedCheck {
  const message = code`${`must be ${relation} ${bound.lexeme}, is `} + String(${value})`;
  if (!context.exactNumbers) {
    const f64 = code`${Number(bound.lexeme)}`;
    return { fails: nativeFails(f64), message, params: code`{ limit: ${f64} }` };
  }
  const { negative, digits, exponent } = parseDecimal(bound.lexeme)!;
  const exact = context.hoist('bound', code`[${negative}, ${digits}, BigInt(${String(exponent)})]${Code.typeOnly(' as const')}`);
  const digitComparison = code`${Code.helper('compareDecimal')}(${Code.helper('decimalOf')}(${value}${Code.typeOnly(' as NumericValue')}), ${exact}) ${Code.raw(failsWhen)}`;
  const fails = roundTripsThroughF64(bound.lexeme) ? code`(typeof ${value} === "number" ? ${nativeFails(code`${Number(bound.lexeme)}`)} : ${digitComparison})` : digitComparison;
  return { fails, message, params: code`{ limit: ${bound.lexeme} }` };
}

const minimum: BoundKeyword<'number'> = {
  definition: decimalKeyword('minimum', 'number', 'Numbers: at least this value (inclusive), compared exactly.'),
  side: 'lower',
  of: (rules) => rules.minimum,
  holds: (bound, value) => compareDecimals(value, bound.value) >= 0,
  emit: (bound, value, context) => emitBound(bound, value, context, (f64) => code`${value} < ${f64}`, '< 0', '>='),
};

const maximum: BoundKeyword<'number'> = {
  definition: decimalKeyword('maximum', 'number', 'Numbers: at most this value (inclusive), compared exactly.'),
  side: 'upper',
  of: (rules) => rules.maximum,
  holds: (bound, value) => compareDecimals(value, bound.value) <= 0,
  emit: (bound, value, context) => emitBound(bound, value, context, (f64) => code`${value} > ${f64}`, '> 0', '<='),
};

/** The inclusive number bounds, each with its side. */
export const numberBoundKeywords: readonly BoundKeyword<'number'>[] = [minimum, maximum];

/** The number rules (of `number` and `integer`): inclusive `minimum` and `maximum`, exact. */
export const numberBounds: RuleFamily<'number'> = { group: 'number', ...boundParts('number', numberBoundKeywords) };
