import type { Position } from '../diagnostics/diagnostic.js';

/**
 * A JSON value as it stands in the source: every node knows where it is (position and JSON
 * Pointer) and numbers keep their exact lexeme, so nothing is rounded before the checker decides.
 */
export type JsonNode = JsonObjectNode | JsonArrayNode | JsonStringNode | JsonNumberNode | JsonBooleanNode | JsonNullNode;

interface NodeBase {
  readonly position: Position;
  readonly pointer: string;
}

export interface JsonMember {
  readonly key: string;
  readonly keyPosition: Position;
  readonly value: JsonNode;
}

export interface JsonObjectNode extends NodeBase {
  readonly kind: 'object';
  /** In source order; a duplicate key is reported by the parser and only its first occurrence kept. */
  readonly members: readonly JsonMember[];
}

export interface JsonArrayNode extends NodeBase {
  readonly kind: 'array';
  readonly items: readonly JsonNode[];
}

export interface JsonStringNode extends NodeBase {
  readonly kind: 'string';
  readonly value: string;
}

export interface JsonNumberNode extends NodeBase {
  readonly kind: 'number';
  /** The literal exactly as written, e.g. `1.0`, `-0`, `18446744073709551615`. */
  readonly lexeme: string;
}

export interface JsonBooleanNode extends NodeBase {
  readonly kind: 'boolean';
  readonly value: boolean;
}

export interface JsonNullNode extends NodeBase {
  readonly kind: 'null';
}

export function findMember(node: JsonObjectNode, key: string): JsonMember | undefined {
  return node.members.find((member) => member.key === key);
}

const unescapeToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The reference tokens of a JSON Pointer, unescaped (`''` has none). */
export function pointerTokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);
}

/** The value a JSON Pointer (RFC 6901) names, or undefined. */
export function nodeAt(root: JsonNode, pointer: string): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const key of pointerTokens(pointer)) {
    if (node?.kind === 'object') node = findMember(node, key)?.value;
    else if (node?.kind === 'array' && /^(0|[1-9][0-9]*)$/.test(key)) node = node.items[Number(key)];
    else return undefined;
  }
  return node;
}

/** The object member a JSON Pointer ends at, with the object that holds it; undefined when it names none. */
export function memberAt(root: JsonNode, pointer: string): { readonly object: JsonObjectNode; readonly member: JsonMember } | undefined {
  const cut = pointer.lastIndexOf('/');
  if (cut < 0) return undefined;
  const object = nodeAt(root, pointer.slice(0, cut));
  if (object?.kind !== 'object') return undefined;
  const member = findMember(object, unescapeToken(pointer.slice(cut + 1)));
  return member === undefined ? undefined : { object, member };
}
