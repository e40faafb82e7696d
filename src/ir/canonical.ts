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
  const out: string[] = [];
  write(node, sortKeys, out);
  return out.join('');
}

/** Appends to one list of parts: nested containers build no strings of their own. */
function write(node: JsonNode, sortKeys: boolean, out: string[]): void {
  switch (node.kind) {
    case 'object': {
      const members = sortKeys ? [...node.members].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : node.members;
      out.push('{');
      members.forEach((member, index) => {
        out.push(index === 0 ? '' : ',', jsonString(member.key), ':');
        write(member.value, sortKeys, out);
      });
      out.push('}');
      return;
    }
    case 'array':
      out.push('[');
      node.items.forEach((item, index) => {
        if (index > 0) out.push(',');
        write(item, sortKeys, out);
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

/**
 * `JSON.stringify` of a string. Most keys and values are printable ASCII without `"` or `\`, which
 * JSON.stringify would only wrap in quotes: those skip its cost.
 */
export function jsonString(value: string): string {
  return plainAscii.test(value) ? `"${value}"` : JSON.stringify(value);
}

const plainAscii = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
