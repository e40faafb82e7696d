import { isPlainAscii, jsonString } from '../codegen/json-string.js';
import { createHash } from 'node:crypto';
import type { JsonNode } from '../source/json-node.js';

/**
 * Compact JSON with object keys sorted by UTF-16 code units and numbers as their exact lexemes:
 * the same contract always gives the same text, whatever its formatting or key order.
 */
export function canonicalJson(node: JsonNode): string {
  const out: string[] = [];
  write(node, out);
  return out.join('');
}

/**
 * The UTF-8 size of a value as compact JSON (no whitespace, strings escaped as JSON.stringify does):
 * what the 32 KiB schema limit measures. Counted, not built.
 */
export function compactJsonBytes(node: JsonNode): number {
  switch (node.kind) {
    case 'object': {
      let bytes = 2 + Math.max(0, node.members.length - 1);
      for (const member of node.members) bytes += stringBytes(member.key) + 1 + compactJsonBytes(member.value);
      return bytes;
    }
    case 'array': {
      let bytes = 2 + Math.max(0, node.items.length - 1);
      for (const item of node.items) bytes += compactJsonBytes(item);
      return bytes;
    }
    case 'number':
      return node.lexeme.length;
    case 'string':
      return stringBytes(node.value);
    case 'boolean':
      return node.value ? 4 : 5;
    case 'null':
      return 4;
  }
}

function stringBytes(value: string): number {
  return isPlainAscii(value) ? value.length + 2 : utf8Length(JSON.stringify(value));
}

/** Appends to one list of parts: nested containers build no strings of their own. */
function write(node: JsonNode, out: string[]): void {
  switch (node.kind) {
    case 'object': {
      const members = [...node.members].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      out.push('{');
      members.forEach((member, index) => {
        out.push(index === 0 ? '' : ',', jsonString(member.key), ':');
        write(member.value, out);
      });
      out.push('}');
      return;
    }
    case 'array':
      out.push('[');
      node.items.forEach((item, index) => {
        if (index > 0) out.push(',');
        write(item, out);
      });
      out.push(']');
      return;
    case 'number':
      out.push(node.lexeme);
      return;
    case 'string':
      out.push(jsonString(node.value));
      return;
    case 'boolean':
      out.push(String(node.value));
      return;
    case 'null':
      out.push('null');
      return;
  }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
