import { lines, type Code } from '../../codegen/code.js';
import type { ArrayRules, CountBound, DecimalBound, NumberRules, SchemaNode, StringRules } from '../../ir/schema-node.js';
import { rulesOf } from '../../ir/schema-node.js';
import { compareDecimals, type ParsedDecimal } from '@json-tool-contracts/runtime/internal';
import type { JsonNode } from '../../source/json-node.js';
import type { EmitScope, EmitContext, EmittedCheck } from '../emission.js';
import type { CompareScope, KeywordDefinition, KeywordValues, SourceValueOf, WarnScope } from '../keyword.js';
import type { NumericReading } from '../numeric-reading.js';

/**
 * A bound keyword is one entry: how its value is read, where the IR keeps it, which side it bounds,
 * and its build-time meaning beside its generated check. What every bound means to
 * every consumer (exported schema, JSDoc tag, shape key, warnings, diff) is written once below,
 * over a family's entries in their order, which is the order of the exported schema and of the
 * generated checks; a new bound is one entry in its family's file.
 */
export type BoundGroup = 'string' | 'number' | 'array';

interface GroupTypes {
  string: { rules: StringRules; bound: CountBound; value: string };
  number: { rules: NumberRules; bound: DecimalBound; value: ParsedDecimal };
  array: { rules: ArrayRules; bound: CountBound; value: readonly unknown[] };
}

type RulesOf<G extends BoundGroup> = GroupTypes[G]['rules'];
type BoundOf<G extends BoundGroup> = GroupTypes[G]['bound'];

export interface BoundKeyword<G extends BoundGroup = BoundGroup> {
  readonly definition: KeywordDefinition<BoundOf<G>>;
  /** A lower bound is tightened by raising it, an upper one by lowering it. */
  readonly side: 'lower' | 'upper';
  /** The bound in its group's rules, where the checker put it. */
  of(rules: RulesOf<G>): BoundOf<G> | undefined;
  /** Its meaning at build time, on a source value (numbers exact). */
  holds(bound: BoundOf<G>, value: GroupTypes[G]['value']): boolean;
  /** The same meaning as generated code, with the message that reports it: side by side, so they cannot drift apart. */
  emit(bound: BoundOf<G>, value: Code, context: EmitContext): EmittedCheck;
}

/** What every bound of a group shares: how it is written and ordered, and how a source value meets it. */
interface BoundGroupReading<G extends BoundGroup> {
  /** The bound as written: exported schema, `@tag`, shape key and messages. */
  text(bound: BoundOf<G>): string;
  /** Orders two bounds as `numeric` reads them. */
  order(a: BoundOf<G>, b: BoundOf<G>, numeric: NumericReading): number;
  /** A source value of the group's type as its constraints read it, and the bound as the same mode reads it. */
  valueOf(source: SourceValueOf<G>, numeric: NumericReading): GroupTypes[G]['value'];
  reread(bound: BoundOf<G>, numeric: NumericReading): BoundOf<G>;
  /** What "no … is valid" says. */
  readonly noun: string;
}

const countReading = {
  text: (bound: CountBound): string => String(bound.value),
  order: (a: CountBound, b: CountBound): number => a.value - b.value,
  reread: (bound: CountBound): CountBound => bound,
};

const readings: { readonly [G in BoundGroup]: BoundGroupReading<G> } = {
  string: { ...countReading, valueOf: (source) => source.value, noun: 'string' },
  array: { ...countReading, valueOf: (source) => source.items, noun: 'array' },
  number: {
    text: (bound) => bound.lexeme,
    order: (a, b, numeric) => compareDecimals(numeric(a.lexeme), numeric(b.lexeme)),
    valueOf: (source, numeric) => numeric(source.lexeme),
    // The default mode reads bounds as their nearest f64, as the value is read.
    reread: (bound, numeric) => ({ ...bound, value: numeric(bound.lexeme) }),
    noun: 'number',
  },
};

/** The bounds rules hold, with their keyword, in table order. */
function boundsOf<G extends BoundGroup>(keywords: readonly BoundKeyword<G>[], rules: RulesOf<G> | undefined): { readonly keyword: BoundKeyword<G>; readonly bound: BoundOf<G> }[] {
  if (rules === undefined) return [];
  return keywords.flatMap((keyword) => {
    const bound = keyword.of(rules);
    return bound === undefined ? [] : [{ keyword, bound }];
  });
}

const groupRules = <G extends BoundGroup>(group: G, node: SchemaNode): RulesOf<G> | undefined => rulesOf(node, group);

/**
 * Every part of a group's bounds (its entries, in the exported schema's order), for the family
 * that owns the group: the string and number families are their bounds; the array family adds `items`.
 */
export function boundParts<G extends BoundGroup>(group: G, keywords: readonly BoundKeyword<G>[]) {
  const reading = readings[group] as BoundGroupReading<G>;
  const written = (rules: RulesOf<G> | undefined) => boundsOf(keywords, rules).map(({ keyword, bound }) => ({ keyword: keyword.definition.keyword, text: reading.text(bound) }));
  return {
    keywords: keywords.map((keyword): KeywordDefinition => keyword.definition),
    /** The group's bounds as the checker read them; a bound's rule field is its keyword. */
    rules(values: KeywordValues): RulesOf<G> {
      const rules: Record<string, unknown> = {};
      for (const keyword of keywords) {
        const bound = values.get(keyword.definition);
        if (bound !== undefined) rules[keyword.definition.keyword] = bound;
      }
      return rules as RulesOf<G>;
    },
    isEmpty: (rules: RulesOf<G>): boolean => boundsOf(keywords, rules).length === 0,
    holds: (rules: RulesOf<G>, source: SourceValueOf<G>, numeric: NumericReading): boolean => {
      const value = reading.valueOf(source, numeric);
      return boundsOf(keywords, rules).every(({ keyword, bound }) => keyword.holds(reading.reread(bound, numeric), value));
    },
    /** One generated check per bound, in table order. */
    emit: (rules: RulesOf<G>, scope: EmitScope): Code => lines(scope.failAll(boundsOf(keywords, rules).map(({ keyword, bound }) => [keyword.definition.keyword, keyword.emit(bound, scope.value, scope.context)] as const))),
    toJson(node: SchemaNode, write: (keyword: string, value: JsonNode) => void): void {
      for (const { keyword, text } of written(groupRules(group, node))) write(keyword, { kind: 'number', position: node.position, pointer: node.pointer, lexeme: text });
    },
    shapeKey: (node: SchemaNode): string =>
      written(groupRules(group, node))
        .map(({ keyword, text }) => `${keyword}=${text}`)
        .join('~'),
    docLines: (node: SchemaNode): string[] => written(groupRules(group, node)).map(({ keyword, text }) => `@${keyword} ${text}`),
    /** A lower bound above the upper one (JTC202): no value of the group is valid. */
    warn(node: SchemaNode, scope: WarnScope): void {
      const bounds = boundsOf(keywords, groupRules(group, node));
      const lower = bounds.find(({ keyword }) => keyword.side === 'lower');
      const upper = bounds.find(({ keyword }) => keyword.side === 'upper');
      if (lower === undefined || upper === undefined || reading.order(lower.bound, upper.bound, scope.numeric) <= 0) return;
      const [low, high] = [lower.keyword.definition.keyword, upper.keyword.definition.keyword];
      scope.warn('JTC202', lower.bound, `"${low}" ${reading.text(lower.bound)} is greater than "${high}" ${reading.text(upper.bound)}: no ${reading.noun} is valid`, 'swap or correct the bounds');
    },
    /** A bound added, or tightened, narrows; removed or loosened widens. */
    compare(before: SchemaNode, after: SchemaNode, scope: CompareScope): undefined {
      const [was, now] = [groupRules(group, before), groupRules(group, after)];
      for (const keyword of keywords) {
        const old = was === undefined ? undefined : keyword.of(was);
        const current = now === undefined ? undefined : keyword.of(now);
        const name = keyword.definition.keyword;
        if (old === undefined) {
          if (current !== undefined) scope.change(current, 'narrows', `"${name}" ${reading.text(current)} was added`);
        } else if (current === undefined) {
          scope.change(undefined, 'widens', `"${name}" ${reading.text(old)} was removed`);
        } else {
          const sign = reading.order(current, old, scope.numeric);
          const tighter = keyword.side === 'lower' ? sign > 0 : sign < 0;
          if (sign !== 0) scope.change(current, tighter ? 'narrows' : 'widens', `"${name}" went from ${reading.text(old)} to ${reading.text(current)}`);
        }
      }
    },
  };
}
