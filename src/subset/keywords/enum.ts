import { Code, code, join } from '../../codegen/code.js';
import { decimalKey, parseDecimal, type ParsedDecimal } from '../../runtime/json.js';
import { jsonLiteral } from '../../codegen/json-literal.js';
import { jsonNodesEqual } from '../../ir/json-equality.js';
import type { EnumRule } from '../../ir/schema-node.js';
import { canonicalJson } from '../../ir/canonical.js';
import type { JsonNode } from '../../source/json-node.js';
import { invalidValue, reportAt, located, valuesFitF64, type EmitContext, type EmittedCheck, type KeywordDefinition } from '../keyword.js';
import { limits } from '../limits.js';

export const enumKeyword: KeywordDefinition<EnumRule> = {
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
};

export function enumHolds(rule: EnumRule, value: JsonNode, numeric: (lexeme: string) => ParsedDecimal): boolean {
  return rule.values.some((allowed) => jsonNodesEqual(allowed, value, numeric));
}

/** Above this many scalar values a Set lookup beats a chain of comparisons. */
const setThreshold = 6;
const listedInMessage = 10;

export function emitEnumCheck(rule: EnumRule, value: Code, context: EmitContext): EmittedCheck {
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
    params: code`{ allowedValues: ${context.hoist('allowedValues', code`Object.freeze([${join(values.map(literalOf), ', ')}])`)} }`,
  };
}
