import { code } from '../../codegen/code.js';
import type { CountBound } from '../../ir/schema-node.js';
import { readCount, type KeywordDefinition, type ValueConstraint } from '../keyword.js';

export const minItems: KeywordDefinition<CountBound> = { keyword: 'minItems', group: 'array', read: readCount('minItems') };
export const maxItems: KeywordDefinition<CountBound> = { keyword: 'maxItems', group: 'array', read: readCount('maxItems') };

const items = (n: number): string => (n === 1 ? 'item' : 'items');

export const minItemsConstraint: ValueConstraint<CountBound, readonly unknown[]> = {
  keyword: 'minItems',
  holds: (bound, value) => value.length >= bound.value,
  emit: (bound, value) => ({
    fails: code`${value}.length < ${bound.value}`,
    message: code`${`must have at least ${bound.value} ${items(bound.value)}, has `} + ${value}.length`,
    params: code`{ limit: ${bound.value} }`,
  }),
};

export const maxItemsConstraint: ValueConstraint<CountBound, readonly unknown[]> = {
  keyword: 'maxItems',
  holds: (bound, value) => value.length <= bound.value,
  emit: (bound, value) => ({
    fails: code`${value}.length > ${bound.value}`,
    message: code`${`must have at most ${bound.value} ${items(bound.value)}, has `} + ${value}.length`,
    params: code`{ limit: ${bound.value} }`,
  }),
};
