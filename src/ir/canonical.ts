import { createHash } from 'node:crypto';
import type { JsonNode } from '../source/json-node.js';

/**
 * Compact JSON with object keys sorted by UTF-16 code units and numbers as their exact lexemes:
 * the same contract always gives the same text, whatever its formatting or key order.
 */
export function canonicalJson(node: JsonNode): string {
  return serialize(node, true);
}

/** Compact JSON in source order: what the 32 KiB schema limit measures. */
export function compactJson(node: JsonNode): string {
  return serialize(node, false);
}

function serialize(node: JsonNode, sortKeys: boolean): string {
  switch (node.kind) {
    case 'object': {
      const members = sortKeys ? [...node.members].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : node.members;
      return `{${members.map((m) => `${JSON.stringify(m.key)}:${serialize(m.value, sortKeys)}`).join(',')}}`;
    }
    case 'array':
      return `[${node.items.map((item) => serialize(item, sortKeys)).join(',')}]`;
    case 'number':
      return node.lexeme;
    case 'string':
      return JSON.stringify(node.value);
    case 'boolean':
      return String(node.value);
    case 'null':
      return 'null';
  }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
