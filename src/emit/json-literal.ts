import type { JsonNode } from '../source/json-node.js';
import { Code, code, join, literal, propertyKey } from './code.js';

/** A JavaScript expression that evaluates to the JSON value of a source node (default-mode numbers). */
export function jsonLiteral(node: JsonNode): Code {
  switch (node.kind) {
    case 'object':
      if (node.members.length === 0) return code`{}`;
      return code`{ ${join(node.members.map((m) => code`${propertyKey(m.key)}: ${jsonLiteral(m.value)}`), ', ')} }`;
    case 'array':
      return code`[${join(node.items.map(jsonLiteral), ', ')}]`;
    case 'number':
      return new Code(literal(Number(node.lexeme)));
    case 'null':
      return code`null`;
    default:
      return code`${node.value}`;
  }
}

/** Multi-line, indented form for the schemas a module exports, so that they read like the contract. */
export function jsonLiteralBlock(node: JsonNode, depth = 0): Code {
  const pad = '  '.repeat(depth + 1);
  const closePad = '  '.repeat(depth);
  if (node.kind === 'object' && node.members.length > 0) {
    const members = node.members.map((m) => `${pad}${propertyKey(m.key).text}: ${jsonLiteralBlock(m.value, depth + 1).text},`);
    return new Code(`{\n${members.join('\n')}\n${closePad}}`);
  }
  if (node.kind === 'array' && node.items.length > 0 && node.items.some((item) => item.kind === 'object' || item.kind === 'array')) {
    const items = node.items.map((item) => `${pad}${jsonLiteralBlock(item, depth + 1).text},`);
    return new Code(`[\n${items.join('\n')}\n${closePad}]`);
  }
  return jsonLiteral(node);
}
