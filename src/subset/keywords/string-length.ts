import { Code, code } from '../../codegen/code.js';
import { codePointLength } from '../../support/code-point-length.js';
import type { CountBound } from '../../ir/schema-node.js';
import { readCount, type KeywordDefinition, type ValueConstraint } from '../keyword.js';

export const minLength: KeywordDefinition<CountBound> = { keyword: 'minLength', group: 'string', read: readCount('minLength') };
export const maxLength: KeywordDefinition<CountBound> = { keyword: 'maxLength', group: 'string', read: readCount('maxLength') };

const characters = (n: number): string => (n === 1 ? 'character' : 'characters');

/*
 * A string of n UTF-16 units has between n/2 and n code points, so the units decide most cases
 * and the code points are counted only in the band where they cannot.
 */
export const minLengthConstraint: ValueConstraint<CountBound, string> = {
  keyword: 'minLength',
  holds: (bound, value) => codePointLength(value) >= bound.value,
  emit: (bound, value) => ({
    fails: code`${value}.length < ${bound.value * 2} && (${value}.length < ${bound.value} || ${Code.helper('codePointLength')}(${value}) < ${bound.value})`,
    message: code`${`must have at least ${bound.value} ${characters(bound.value)}, has `} + ${Code.helper('codePointLength')}(${value})`,
    params: code`{ limit: ${bound.value} }`,
  }),
};

export const maxLengthConstraint: ValueConstraint<CountBound, string> = {
  keyword: 'maxLength',
  holds: (bound, value) => codePointLength(value) <= bound.value,
  emit: (bound, value) => ({
    fails: code`${value}.length > ${bound.value} && (${value}.length > ${bound.value * 2} || ${Code.helper('codePointLength')}(${value}) > ${bound.value})`,
    message: code`${`must have at most ${bound.value} ${characters(bound.value)}, has `} + ${Code.helper('codePointLength')}(${value})`,
    params: code`{ limit: ${bound.value} }`,
  }),
};
