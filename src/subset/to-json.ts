import type { JsonMember, JsonNode } from '../source/json-node.js';
import type { SchemaNode } from '../ir/schema-node.js';
import { keywordFamilies } from './keywords/index.js';

/**
 * The IR back as JSON: what the generated module exports as its schema, so that the schema a
 * client sees, the validator and the types all come from the same checked form. Keywords come
 * in the table's fixed order; keywords inert for the declared type (warned about as JTC201) are gone.
 */
export function schemaToJson(node: SchemaNode): JsonNode {
  const members: JsonMember[] = [];
  const write = (key: string, value: JsonNode): void => {
    members.push({ key, keyPosition: node.position, value });
  };
  for (const family of keywordFamilies) family.toJson(node, write, schemaToJson);
  return { kind: 'object', position: node.position, pointer: node.pointer, members };
}

/** A source value as plain JSON (numbers as JS numbers): for checks that read a schema as data. */
export function plainJson(node: JsonNode): unknown {
  switch (node.kind) {
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const member of node.members) Object.defineProperty(object, member.key, { value: plainJson(member.value), enumerable: true, writable: true, configurable: true });
      return object;
    }
    case 'array':
      return node.items.map(plainJson);
    case 'number':
      return Number(node.lexeme);
    case 'null':
      return null;
    default:
      return node.value;
  }
}
