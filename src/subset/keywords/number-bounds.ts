import type { Decimal } from 'decimal.js';
import { code } from '../../emit/code.js';
import type { DecimalBound } from '../../ir/schema-node.js';
import { readDecimal, type KeywordDefinition, type ValueConstraint } from '../keyword.js';

export const minimum: KeywordDefinition<DecimalBound> = { keyword: 'minimum', group: 'number', read: readDecimal('minimum') };
export const maximum: KeywordDefinition<DecimalBound> = { keyword: 'maximum', group: 'number', read: readDecimal('maximum') };

/**
 * Default mode: the bound is the nearest f64 of its literal, exactly as JSON.parse rounds the
 * value, so the native comparison is the specified one.
 */
export function defaultModeBound(bound: DecimalBound): number {
  return Number(bound.lexeme);
}

export const minimumConstraint: ValueConstraint<DecimalBound, Decimal> = {
  keyword: 'minimum',
  holds: (bound, value) => value.greaterThanOrEqualTo(bound.value),
  emit: (bound, value) => ({
    fails: code`${value} < ${defaultModeBound(bound)}`,
    message: code`${`must be >= ${bound.lexeme}, is `} + ${value}`,
    params: code`{ limit: ${defaultModeBound(bound)} }`,
    helpers: [],
  }),
};

export const maximumConstraint: ValueConstraint<DecimalBound, Decimal> = {
  keyword: 'maximum',
  holds: (bound, value) => value.lessThanOrEqualTo(bound.value),
  emit: (bound, value) => ({
    fails: code`${value} > ${defaultModeBound(bound)}`,
    message: code`${`must be <= ${bound.lexeme}, is `} + ${value}`,
    params: code`{ limit: ${defaultModeBound(bound)} }`,
    helpers: [],
  }),
};
