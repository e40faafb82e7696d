import { isWholeDecimal } from '@json-tool-contracts/runtime/internal';
import { rulesOf, type SchemaNode } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { enumValues } from './keywords/enum.js';
import { ruleFamilies } from './keywords/index.js';
import { typeKeyword } from './keywords/type.js';
import type { RuleGroupName, SourceValueOf } from './keyword.js';
import type { NumericReading } from './numeric-reading.js';

/**
 * The build-time meaning of a schema, on source values: the same constraints the generated code
 * emits, evaluated directly by each family. Used to find defaults, examples and enum values a
 * schema rejects.
 */
export function evaluate(node: SchemaNode, value: JsonNode, numeric: NumericReading, options: { ignoreEnum?: boolean } = {}): boolean {
  if (!options.ignoreEnum && node.enum !== undefined && !enumValues.holds(node.enum, value, numeric)) return false;
  const isInteger = (lexeme: string): boolean => isWholeDecimal(numeric(lexeme));
  if (node.kind !== 'any' && !typeKeyword.matches(node.kind, value, isInteger)) return false;
  return rulesHold(node, value, numeric);
}

/** The rules of the value's own type; a value of any other type meets them. */
function rulesHold(node: SchemaNode, value: JsonNode, numeric: NumericReading): boolean {
  switch (value.kind) {
    case 'string':
      return groupHolds('string', node, value, numeric);
    case 'number':
      return groupHolds('number', node, value, numeric);
    case 'array':
      return groupHolds('array', node, value, numeric);
    case 'object':
      return groupHolds('object', node, value, numeric);
    default:
      return true;
  }
}

function groupHolds<G extends RuleGroupName>(group: G, node: SchemaNode, value: SourceValueOf<G>, numeric: NumericReading): boolean {
  const rules = rulesOf(node, group);
  return rules === undefined || ruleFamilies[group].holds(rules, value, numeric, (child, childValue) => evaluate(child, childValue, numeric));
}
