import { isWholeDecimal, parseDecimal, type ParsedDecimal } from '../runtime/json.js';
import { rulesOf, type AnyRules, type ArrayRules, type NumberRules, type ObjectRules, type SchemaNode, type StringRules } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { enumHolds } from './keywords/enum.js';
import { maxItemsConstraint, minItemsConstraint } from './keywords/item-count.js';
import { maximumConstraint, minimumConstraint } from './keywords/number-bounds.js';
import { maxLengthConstraint, minLengthConstraint } from './keywords/string-length.js';
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
      return rules.string === undefined || stringHolds(rules.string, value.value);
    case 'number':
      return rules.number === undefined || numberHolds(rules.number, numeric(value.lexeme), numeric);
    case 'array':
      return rules.array === undefined || arrayHolds(rules.array, value.items, numeric);
    case 'object':
      return rules.object === undefined || objectHolds(rules.object, value, numeric);
    default:
      return true;
  }
}

function stringHolds(rules: StringRules, value: string): boolean {
  return (rules.minLength === undefined || minLengthConstraint.holds(rules.minLength, value)) && (rules.maxLength === undefined || maxLengthConstraint.holds(rules.maxLength, value));
}

function numberHolds(rules: NumberRules, value: ParsedDecimal, numeric: NumericReading): boolean {
  const read = <B extends { lexeme: string }>(bound: B): B & { value: ParsedDecimal } => ({ ...bound, value: numeric(bound.lexeme) });
  return (rules.minimum === undefined || minimumConstraint.holds(read(rules.minimum), value)) && (rules.maximum === undefined || maximumConstraint.holds(read(rules.maximum), value));
}

function arrayHolds(rules: ArrayRules, items: readonly JsonNode[], numeric: NumericReading): boolean {
  if (rules.minItems !== undefined && !minItemsConstraint.holds(rules.minItems, items)) return false;
  if (rules.maxItems !== undefined && !maxItemsConstraint.holds(rules.maxItems, items)) return false;
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
