import { compareDecimals, decimalKey, type ParsedDecimal } from '@json-tool-contracts/runtime/internal';
import type { JsonNode } from '../source/json-node.js';

/** JSON equality on source values: deep, key order ignored, numbers by value (`1` equals `1.0`). */
export function jsonNodesEqual(a: JsonNode, b: JsonNode, numeric: (lexeme: string) => ParsedDecimal): boolean {
  switch (a.kind) {
    case 'number':
      return b.kind === 'number' && compareDecimals(numeric(a.lexeme), numeric(b.lexeme)) === 0;
    case 'string':
    case 'boolean':
      return b.kind === a.kind && b.value === a.value;
    case 'null':
      return b.kind === 'null';
    case 'array':
      return b.kind === 'array' && a.items.length === b.items.length && a.items.every((item, i) => jsonNodesEqual(item, b.items[i]!, numeric));
    case 'object': {
      if (b.kind !== 'object' || a.members.length !== b.members.length) return false;
      const others = new Map(b.members.map((n) => [n.key, n.value]));
      return a.members.every((m) => {
        const other = others.get(m.key);
        return other !== undefined && jsonNodesEqual(m.value, other, numeric);
      });
    }
  }
}

/** Equal under `jsonNodesEqual` exactly when the keys are equal: for finding repeats in one pass. */
export function equalityKey(node: JsonNode, numeric: (lexeme: string) => ParsedDecimal): string {
  switch (node.kind) {
    case 'number':
      return `n${decimalKey(numeric(node.lexeme))}`;
    case 'array':
      return `[${node.items.map((item) => equalityKey(item, numeric)).join(',')}]`;
    case 'object':
      return `{${[...node.members]
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map((m) => `${JSON.stringify(m.key)}:${equalityKey(m.value, numeric)}`)
        .join(',')}}`;
    case 'string':
      return JSON.stringify(node.value);
    default:
      return String(node.kind === 'null' ? null : node.value);
  }
}
