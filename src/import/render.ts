import type { JsonNode } from '../source/json-node.js';

/** Arrays of scalars up to this many characters stay on one line (`"required": ["path", "mode"]`). */
const inlineWidth = 80;

/**
 * A JSON value as a contract file holds it: two-space indentation, one member per line, short
 * arrays of scalars on one line, numbers exactly as the source wrote them. The same value always
 * gives the same text.
 */
export function renderJson(node: JsonNode, indent = ''): string {
  switch (node.kind) {
    case 'object': {
      if (node.members.length === 0) return '{}';
      const inner = `${indent}  `;
      return `{\n${node.members.map((member) => `${inner}${JSON.stringify(member.key)}: ${renderJson(member.value, inner)}`).join(',\n')}\n${indent}}`;
    }
    case 'array': {
      if (node.items.length === 0) return '[]';
      const scalars = node.items.every((item) => item.kind !== 'object' && item.kind !== 'array');
      const oneLine = `[${node.items.map((item) => renderJson(item)).join(', ')}]`;
      if (scalars && oneLine.length <= inlineWidth) return oneLine;
      const inner = `${indent}  `;
      return `[\n${node.items.map((item) => `${inner}${renderJson(item, inner)}`).join(',\n')}\n${indent}]`;
    }
    case 'string':
      return JSON.stringify(node.value);
    case 'number':
      return node.lexeme;
    case 'boolean':
      return String(node.value);
    case 'null':
      return 'null';
  }
}
