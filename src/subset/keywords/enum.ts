import { Code, code, join, typeMemberName } from '../../codegen/code.js';
import { decimalKey, parseDecimal, roundTripsThroughF64 } from '@json-tool-contracts/runtime/internal';
import { jsonLiteral } from '../../codegen/json-literal.js';
import { equalityKey, jsonNodesEqual } from '../../ir/json-equality.js';
import type { EnumRule } from '../../ir/schema-node.js';
import { canonicalJson } from '../../ir/canonical.js';
import type { JsonNode } from '../../source/json-node.js';
import { invalidValue, reportAt, located, valuesFitF64, type KeywordDefinition, type KeywordFamily } from '../keyword.js';
import type { EmitContext, EmittedCheck } from '../emission.js';
import type { NumericReading } from '../numeric-reading.js';
import { limits } from '../limits.js';

const enumKeyword: KeywordDefinition<EnumRule> = {
  keyword: 'enum',
  group: 'all',
  read(node, context) {
    if (node.kind !== 'array') return invalidValue(context, node, `"enum" must be an array of the allowed values, found ${node.kind}`);
    if (node.items.length > limits.enumValues) {
      return reportAt(context, 'JTC116', node, `"enum" has ${node.items.length} values; the limit is ${limits.enumValues}`, 'use a string with "maxLength" and check membership in the handler, or split the tool');
    }
    if (!valuesFitF64('enum', node, context)) return undefined;
    return { ...located(node), values: node.items, accepted: node.items };
  },
  editor: { type: 'array', maxItems: limits.enumValues, description: `The allowed values, compared by JSON equality (deep, key order ignored, 1 equals 1.0). At most ${limits.enumValues}.` },
};

/** Above this many scalar values a Set lookup beats a chain of comparisons. */
const setThreshold = 6;
const listedInMessage = 10;

function emitEnumCheck(rule: EnumRule, value: Code, context: EmitContext): EmittedCheck {
  const exact = context.exactNumbers;
  const isScalar = (v: JsonNode): boolean => v.kind !== 'object' && v.kind !== 'array' && !(exact && v.kind === 'number');
  const values = rule.accepted;
  const scalars = values.filter(isScalar);
  const numbers = exact ? values.filter((v): v is Extract<JsonNode, { kind: 'number' }> => v.kind === 'number') : [];
  const structured = values.filter((v) => v.kind === 'object' || v.kind === 'array');
  const literalOf = (v: JsonNode): Code => jsonLiteral(v, exact);
  const matches: Code[] = [];
  if (scalars.length > setThreshold) {
    const set = context.hoist('allowed', code`new Set${Code.typeOnly('<unknown>')}([${join(scalars.map(literalOf), ', ')}])`);
    matches.push(code`${set}.has(${value})`);
  } else {
    matches.push(...scalars.map((v) => code`${value} === ${literalOf(v)}`));
  }
  if (numbers.length > 0) {
    // Exact mode: 1, 1.0, 1n and JsonNumber("1.00") are one value.
    const keys = context.hoist(
      'allowedNumbers',
      code`new Set${Code.typeOnly('<string>')}([${join(
        [...new Set(numbers.map((n) => decimalKey(parseDecimal(n.lexeme)!)))].map((k) => code`${k}`),
        ', ',
      )}])`,
    );
    matches.push(code`(${Code.helper('isNumeric')}(${value}) && ${keys}.has(${Code.helper('decimalKey')}(${value})))`);
  }
  for (const v of structured) matches.push(code`${Code.helper('jsonEqual')}(${value}, ${context.hoist('allowed', literalOf(v))})`);
  const listed = values.slice(0, listedInMessage).map(canonicalJson).join(', ');
  const more = values.length > listedInMessage ? `, … (${values.length} values)` : '';
  return {
    fails: matches.length === 0 ? code`true` : code`!(${join(matches, ' || ')})`,
    message: code`${values.length === 0 ? 'must not be present: "enum" allows no value its schema accepts' : `must be one of ${listed}${more}`}`,
    params: code`{ allowedValues: ${context.hoist('allowedValues', code`/* @__PURE__ */ Object.freeze([${join(values.map(literalOf), ', ')}])`)} }`,
  };
}

/** A JSON value as a TypeScript literal type. */
function literalType(value: JsonNode, exactNumbers: boolean): Code {
  switch (value.kind) {
    case 'string':
      return code`${value.value}`;
    case 'number':
      // A number's shortest text is code as it is (never "-0": the type of zero is 0).
      return exactNumbers && !roundTripsThroughF64(value.lexeme) ? code`JsonNumber` : Code.raw(String(Number(value.lexeme)));
    case 'boolean':
      return code`${value.value}`;
    case 'null':
      return code`null`;
    case 'array':
      return code`[${join(
        value.items.map((item) => literalType(item, exactNumbers)),
        ', ',
      )}]`;
    case 'object':
      return value.members.length === 0
        ? code`{}`
        : code`{ ${join(
            value.members.map((m) => code`${typeMemberName(m.key)}: ${literalType(m.value, exactNumbers)};`),
            ' ',
          )} }`;
  }
}

const plural = (n: number, one: string): string => (n === 1 ? one : `${n} values`);

interface EnumFamily extends KeywordFamily {
  readonly definition: KeywordDefinition<EnumRule>;
  holds(rule: EnumRule, value: JsonNode, numeric: NumericReading): boolean;
  emit(rule: EnumRule, value: Code, context: EmitContext): EmittedCheck;
  type(rule: EnumRule, exactNumbers: boolean): readonly Code[];
}

/** `enum`: the allowed values, by JSON equality; members the schema's own type or rules reject drop out of validators and types. */
export const enumValues: EnumFamily = {
  keywords: [enumKeyword],
  definition: enumKeyword,
  holds: (rule, value, numeric) => rule.values.some((allowed) => jsonNodesEqual(allowed, value, numeric)),
  emit: emitEnumCheck,
  /** The accepted members as literal types; in exact mode a numeric member may also arrive as a bigint or a JsonNumber of equal value. */
  type(rule, exactNumbers) {
    if (rule.accepted.length === 0) return [code`never`];
    const literals = rule.accepted.map((value) => literalType(value, exactNumbers));
    return exactNumbers && rule.accepted.some((v) => v.kind === 'number') ? [...literals, code`NumericValue`] : literals;
  },
  toJson(node, write) {
    if (node.enum !== undefined) write(enumKeyword.keyword, { kind: 'array', position: node.position, pointer: node.pointer, items: node.enum.values });
  },
  shapeKey: (node) => (node.enum === undefined ? '' : `[${node.enum.accepted.map(canonicalJson).join(',')}]`),
  warn(node, scope) {
    if (node.enum === undefined) return;
    const values = node.enum.values;
    if (values.length === 0) scope.warn('JTC204', node.enum, '"enum" is empty: no value is valid', 'list the allowed values, or remove the property');
    const seen = new Set<string>();
    for (const value of values) {
      const key = equalityKey(value, scope.numeric);
      const repeated = seen.has(key);
      seen.add(key);
      if (repeated) scope.warn('JTC205', value, `enum value ${canonicalJson(value)} repeats an earlier one`, 'remove the repetition');
      else if (!scope.accepts(node, value, true)) scope.warn('JTC203', value, `enum value ${canonicalJson(value)} is rejected by the schema's own type or bounds`, 'remove it or correct the schema');
    }
  },
  compare(before, after, scope) {
    const [oldEnum, newEnum] = [before.enum, after.enum];
    if (oldEnum === undefined || newEnum === undefined) {
      if (oldEnum !== undefined) scope.change(undefined, 'widens', '"enum" was removed');
      else if (newEnum !== undefined) scope.change(newEnum, 'narrows', '"enum" was added');
      return;
    }
    const keyOf = (value: JsonNode): string => equalityKey(value, scope.numeric);
    const oldKeys = new Set(oldEnum.accepted.map(keyOf));
    const newKeys = new Set(newEnum.accepted.map(keyOf));
    const removed = oldEnum.accepted.filter((v) => !newKeys.has(keyOf(v))).length;
    const added = newEnum.accepted.filter((v) => !oldKeys.has(keyOf(v))).length;
    if (removed > 0) scope.change(newEnum, 'narrows', `"enum" lost ${plural(removed, 'a value')}`);
    if (added > 0) scope.change(newEnum, 'widens', `"enum" gained ${plural(added, 'a value')}`);
  },
};
