import type { JsonNode } from '../source/json-node.js';
import { decimalText, parseDecimal, roundTripsThroughF64 } from '@json-tool-contracts/runtime/internal';
import { Code, code, join, literal, propertyKey } from './code.js';

/**
 * A JavaScript expression that evaluates to the JSON value of a source node. In exact mode a number
 * that a double does not hold exactly becomes `jsonNumber("…")`, the module's own JsonNumber.
 */
export function jsonLiteral(node: JsonNode, exact = false): Code {
  switch (node.kind) {
    case 'object':
      if (node.members.length === 0) return code`{}`;
      return code`{ ${join(
        node.members.map((m) => code`${propertyKey(m.key)}: ${jsonLiteral(m.value, exact)}`),
        ', ',
      )} }`;
    case 'array':
      return code`[${join(
        node.items.map((item) => jsonLiteral(item, exact)),
        ', ',
      )}]`;
    case 'number':
      if (exact && !roundTripsThroughF64(node.lexeme)) return code`${Code.helper('jsonNumber')}(${decimalText(parseDecimal(node.lexeme)!)})`;
      return Code.raw(literal(Number(node.lexeme)));
    case 'null':
      return code`null`;
    default:
      return code`${node.value}`;
  }
}

/** Multi-line, indented form for the schemas a module exports, so that they read like the contract. */
export function jsonLiteralBlock(node: JsonNode, exact: boolean, indent = ''): string {
  const inner = `${indent}  `;
  if (node.kind === 'object' && node.members.length > 0) {
    let text = '{';
    for (const member of node.members) text += `\n${inner}${propertyKey(member.key).text}: ${jsonLiteralBlock(member.value, exact, inner)},`;
    return `${text}\n${indent}}`;
  }
  if (node.kind === 'array' && node.items.some((item) => item.kind === 'object' || item.kind === 'array')) {
    let text = '[';
    for (const item of node.items) text += `\n${inner}${jsonLiteralBlock(item, exact, inner)},`;
    return `${text}\n${indent}]`;
  }
  return jsonLiteral(node, exact).text;
}

/** Whether the literal of this value calls the module's `jsonNumber` helper (exact numbers past f64). */
export function usesJsonNumber(node: JsonNode, exact: boolean): boolean {
  if (node.kind === 'number') return exact && !roundTripsThroughF64(node.lexeme);
  if (node.kind === 'array') return node.items.some((item) => usesJsonNumber(item, exact));
  if (node.kind === 'object') return node.members.some((m) => usesJsonNumber(m.value, exact));
  return false;
}
