import { Code, code } from '../../codegen/code.js';
import { codePointLength } from '@json-tool-contracts/runtime/internal';
import { countKeyword, type RuleFamily } from '../keyword.js';
import { boundParts, type BoundKeyword } from './bounds.js';

const characters = (n: number): string => (n === 1 ? 'character' : 'characters');

/*
 * A string of n UTF-16 units has between n/2 and n code points, so the units decide most cases
 * and the code points are counted only in the band where they cannot.
 */
const minLength: BoundKeyword<'string'> = {
  definition: countKeyword('minLength', 'string', 'Strings: at least this many characters, counted in code points.'),
  side: 'lower',
  of: (rules) => rules.minLength,
  holds: (bound, value) => codePointLength(value) >= bound.value,
  emit: (bound, value) => ({
    fails: code`${value}.length < ${bound.value * 2} && (${value}.length < ${bound.value} || ${Code.helper('codePointLength')}(${value}) < ${bound.value})`,
    message: code`${`must have at least ${bound.value} ${characters(bound.value)}, has `} + ${Code.helper('codePointLength')}(${value})`,
    params: code`{ limit: ${bound.value} }`,
  }),
};

const maxLength: BoundKeyword<'string'> = {
  definition: countKeyword('maxLength', 'string', 'Strings: at most this many characters, counted in code points.'),
  side: 'upper',
  of: (rules) => rules.maxLength,
  holds: (bound, value) => codePointLength(value) <= bound.value,
  emit: (bound, value) => ({
    fails: code`${value}.length > ${bound.value} && (${value}.length > ${bound.value * 2} || ${Code.helper('codePointLength')}(${value}) > ${bound.value})`,
    message: code`${`must have at most ${bound.value} ${characters(bound.value)}, has `} + ${Code.helper('codePointLength')}(${value})`,
    params: code`{ limit: ${bound.value} }`,
  }),
};

/** The string rules: `minLength` and `maxLength`, counted in code points. */
export const stringLength: RuleFamily<'string'> = { group: 'string', ...boundParts('string', [minLength, maxLength]) };
