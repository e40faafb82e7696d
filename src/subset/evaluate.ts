import { isWholeDecimal } from '../runtime/json.js';
import { rulesOf, type AnyRules, type SchemaNode } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { enumValues } from './keywords/enum.js';
import { ruleFamilies } from './keywords/index.js';
import { typeKeyword } from './keywords/type.js';
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
  return rulesHold(rulesOf(node), value, numeric);
}

/** The rules of the value's own type; a value of any other type meets them. */
function rulesHold(rules: Partial<AnyRules>, value: JsonNode, numeric: NumericReading): boolean {
  const accepts = (child: SchemaNode, childValue: JsonNode): boolean => evaluate(child, childValue, numeric);
  switch (value.kind) {
    case 'string':
      return rules.string === undefined || ruleFamilies.string.holds(rules.string, value, numeric, accepts);
    case 'number':
      return rules.number === undefined || ruleFamilies.number.holds(rules.number, value, numeric, accepts);
    case 'array':
      return rules.array === undefined || ruleFamilies.array.holds(rules.array, value, numeric, accepts);
    case 'object':
      return rules.object === undefined || ruleFamilies.object.holds(rules.object, value, numeric, accepts);
    default:
      return true;
  }
}
