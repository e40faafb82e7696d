import type { Code } from '../../codegen/code.js';
import type { ArrayRules, CountBound, DecimalBound, NumberRules, StringRules } from '../../ir/schema-node.js';
import type { ParsedDecimal } from '../../runtime/json.js';
import type { EmitContext, EmittedCheck, KeywordDefinition, ValueConstraint } from '../keyword.js';
import { maxItems, maxItemsConstraint, minItems, minItemsConstraint } from './item-count.js';
import { maximum, maximumConstraint, minimum, minimumConstraint } from './number-bounds.js';
import { maxLength, maxLengthConstraint, minLength, minLengthConstraint } from './string-length.js';

/**
 * The bound keywords, each with every part of its meaning in one entry: how its value is read,
 * its build-time meaning and generated check (the constraint), where the IR keeps it, and how it
 * is written back (exported schema, JSDoc tag, shape key). Consumers iterate this table in its
 * order, which is the order of the exported schema and of the generated checks; none names a
 * bound keyword, so a new one is one entry here plus its file.
 */
export type BoundGroup = 'string' | 'number' | 'array';

interface GroupTypes {
  string: { rules: StringRules; bound: CountBound; value: string };
  number: { rules: NumberRules; bound: DecimalBound; value: ParsedDecimal };
  array: { rules: ArrayRules; bound: CountBound; value: readonly unknown[] };
}

export interface BoundKeyword<G extends BoundGroup = BoundGroup> {
  readonly keyword: string;
  readonly group: G;
  readonly definition: KeywordDefinition<GroupTypes[G]['bound']>;
  readonly constraint: ValueConstraint<GroupTypes[G]['bound'], GroupTypes[G]['value']>;
  /** The bound in its group's rules, where the checker put it. */
  of(rules: GroupTypes[G]['rules']): GroupTypes[G]['bound'] | undefined;
  /** The bound as written: exported schema, `@tag` and shape key. */
  text(bound: GroupTypes[G]['bound']): string;
}

const count = (bound: CountBound): string => String(bound.value);
const decimal = (bound: DecimalBound): string => bound.lexeme;

const stringBounds: readonly BoundKeyword<'string'>[] = [
  { keyword: 'minLength', group: 'string', definition: minLength, constraint: minLengthConstraint, of: (r) => r.minLength, text: count },
  { keyword: 'maxLength', group: 'string', definition: maxLength, constraint: maxLengthConstraint, of: (r) => r.maxLength, text: count },
];
const numberBounds: readonly BoundKeyword<'number'>[] = [
  { keyword: 'minimum', group: 'number', definition: minimum, constraint: minimumConstraint, of: (r) => r.minimum, text: decimal },
  { keyword: 'maximum', group: 'number', definition: maximum, constraint: maximumConstraint, of: (r) => r.maximum, text: decimal },
];
const arrayBounds: readonly BoundKeyword<'array'>[] = [
  { keyword: 'minItems', group: 'array', definition: minItems, constraint: minItemsConstraint, of: (r) => r.minItems, text: count },
  { keyword: 'maxItems', group: 'array', definition: maxItems, constraint: maxItemsConstraint, of: (r) => r.maxItems, text: count },
];

/** Every bound keyword, by group, in the exported schema's order. */
export const boundKeywords = { string: stringBounds, number: numberBounds, array: arrayBounds } as const satisfies { readonly [G in BoundGroup]: readonly BoundKeyword<G>[] };

/** The bounds a group's rules hold, with their keyword: what every consumer iterates. */
export function boundsOf<G extends BoundGroup>(group: G, rules: GroupTypes[G]['rules'] | undefined): { readonly keyword: BoundKeyword<G>; readonly bound: GroupTypes[G]['bound'] }[] {
  if (rules === undefined) return [];
  return (boundKeywords[group] as readonly BoundKeyword<G>[]).flatMap((keyword) => {
    const bound = keyword.of(rules);
    return bound === undefined ? [] : [{ keyword, bound }];
  });
}

/** The generated check of each bound a group's rules hold, in order. */
export function emitBounds<G extends BoundGroup>(group: G, rules: GroupTypes[G]['rules'], value: Code, context: EmitContext): (readonly [string, EmittedCheck])[] {
  return boundsOf(group, rules).map(({ keyword, bound }) => [keyword.keyword, keyword.constraint.emit(bound, value, context)] as const);
}

/** Whether a source value meets every bound a group's rules hold; `reread` lets the default mode read number bounds as f64. */
export function boundsHold<G extends BoundGroup>(group: G, rules: GroupTypes[G]['rules'], value: GroupTypes[G]['value'], reread: (bound: GroupTypes[G]['bound']) => GroupTypes[G]['bound'] = (bound) => bound): boolean {
  return boundsOf(group, rules).every(({ keyword, bound }) => keyword.constraint.holds(reread(bound), value));
}

/** The bounds a group's rules hold as `keyword=text`, for shape keys and tags. */
export function boundsWritten<G extends BoundGroup>(group: G, rules: GroupTypes[G]['rules'] | undefined, separator = '~'): string {
  return boundsOf(group, rules)
    .map(({ keyword, bound }) => `${keyword.keyword}=${keyword.text(bound)}`)
    .join(separator);
}

/** Every bound of a node's rules as written, group by group in table order: for JSDoc tags and the exported schema. */
export function writtenBounds(rules: { readonly [G in BoundGroup]?: GroupTypes[G]['rules'] }, groups: readonly BoundGroup[] = ['string', 'number', 'array']): { readonly keyword: string; readonly text: string }[] {
  const written = <G extends BoundGroup>(group: G) => boundsOf(group, rules[group]).map(({ keyword, bound }) => ({ keyword: keyword.keyword, text: keyword.text(bound) }));
  return groups.flatMap((group) => written(group));
}
