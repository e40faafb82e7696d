import { isWholeDecimal, parseDecimal, type ParsedDecimal } from '../runtime/json.js';
import { rulesOf, type AnyRules, type ArrayRules, type ObjectRules, type SchemaNode } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { boundsHold } from './keywords/bounds.js';
import { enumHolds } from './keywords/enum.js';
import { sourceTypeMatches } from './keywords/type.js';

/** How a numeric literal is read: exactly, or rounded to the nearest f64 as the default mode does. */
export type NumericReading = (lexeme: string) => ParsedDecimal;

export const exactReading: NumericReading = (lexeme) => parseDecimal(lexeme)!;
/** Shortest round-trip digits of the f64: ordered exactly as the doubles are. */
export const f64Reading: NumericReading = (lexeme) => {
  const f64 = Number(lexeme);
  // Outside the f64 range (refused as JTC117 before it matters) the value is kept exact.
  return Number.isFinite(f64) ? parseDecimal(String(f64))! : parseDecimal(lexeme)!;
};

export function numericReading(exactNumbers: boolean): NumericReading {
  return exactNumbers ? exactReading : f64Reading;
}

/**
 * The build-time meaning of a schema, on source values: the same constraints the generated code
 * emits, evaluated directly. Used to find defaults, examples and enum values a schema rejects.
 */
export function evaluate(node: SchemaNode, value: JsonNode, numeric: NumericReading, options: { ignoreEnum?: boolean } = {}): boolean {
  if (!options.ignoreEnum && node.enum !== undefined && !enumHolds(node.enum, value, numeric)) return false;
  const isInteger = (lexeme: string): boolean => isWholeDecimal(numeric(lexeme));
  switch (node.kind) {
    case 'any':
      return anyHolds(node.rules, value, numeric);
    default:
      return sourceTypeMatches(node.kind, value, isInteger) && anyHolds(rulesOf(node), value, numeric);
  }
}

function anyHolds(rules: Partial<AnyRules>, value: JsonNode, numeric: NumericReading): boolean {
  switch (value.kind) {
    case 'string':
      return rules.string === undefined || boundsHold('string', rules.string, value.value);
    case 'number':
      // The default mode reads bounds as their nearest f64, as the value is read.
      return rules.number === undefined || boundsHold('number', rules.number, numeric(value.lexeme), (bound) => ({ ...bound, value: numeric(bound.lexeme) }));
    case 'array':
      return rules.array === undefined || arrayHolds(rules.array, value.items, numeric);
    case 'object':
      return rules.object === undefined || objectHolds(rules.object, value, numeric);
    default:
      return true;
  }
}

function arrayHolds(rules: ArrayRules, items: readonly JsonNode[], numeric: NumericReading): boolean {
  if (!boundsHold('array', rules, items)) return false;
  const itemSchema = rules.items;
  return itemSchema === undefined || items.every((item) => evaluate(itemSchema, item, numeric));
}

function objectHolds(rules: ObjectRules, value: Extract<JsonNode, { kind: 'object' }>, numeric: NumericReading): boolean {
  const members = new Map(value.members.map((m) => [m.key, m.value]));
  if (!rules.required.every((name) => members.has(name))) return false;
  for (const { name, schema } of rules.properties) {
    const propertyValue = members.get(name);
    if (propertyValue !== undefined && !evaluate(schema, propertyValue, numeric)) return false;
  }
  if (rules.additionalProperties !== false) return true;
  const declared = new Set(rules.properties.map((p) => p.name));
  return value.members.every((m) => declared.has(m.key));
}
