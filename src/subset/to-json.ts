import type { JsonMember, JsonNode } from '../source/json-node.js';
import { type BoundGroup, writtenBounds } from './keywords/bounds.js';
import { rulesOf, type SchemaNode } from '../ir/schema-node.js';

/**
 * The IR back as JSON: what the generated module exports as its schema, so that the schema a
 * client sees, the validator and the types all come from the same checked form. Keywords come
 * in a fixed order; keywords inert for the declared type (warned about as JTC201) are gone.
 */
export function schemaToJson(node: SchemaNode): JsonNode {
  const members: JsonMember[] = [];
  const add = (key: string, value: JsonNode | undefined): void => {
    if (value !== undefined) members.push({ key, keyPosition: node.position, value });
  };
  const at = { position: node.position, pointer: node.pointer };
  const text = (value: string | undefined): JsonNode | undefined => (value === undefined ? undefined : { kind: 'string', ...at, value });
  const { annotations } = node;

  add('$schema', text(annotations.$schema));
  add('$id', text(annotations.$id));
  add('title', text(annotations.title));
  add('description', text(annotations.description));
  if (node.kind !== 'any') add('type', text(node.kind));
  const rules = rulesOf(node);
  const bounds = (groups: readonly BoundGroup[]): void => {
    for (const { keyword, text } of writtenBounds(rules, groups)) add(keyword, { kind: 'number', ...at, lexeme: text });
  };
  bounds(['string', 'number']);
  add('items', rules.array?.items === undefined ? undefined : schemaToJson(rules.array.items));
  bounds(['array']);
  const object = rules.object;
  if (object !== undefined && object.properties.length > 0) {
    add('properties', { kind: 'object', ...at, members: object.properties.map((p) => ({ key: p.name, keyPosition: node.position, value: schemaToJson(p.schema) })) });
  }
  if (object !== undefined && object.required.length > 0) add('required', { kind: 'array', ...at, items: object.required.map((name) => ({ kind: 'string', ...at, value: name })) });
  if (object?.additionalProperties !== undefined) add('additionalProperties', { kind: 'boolean', ...at, value: object.additionalProperties });
  add('enum', node.enum === undefined ? undefined : { kind: 'array', ...at, items: node.enum.values });
  add('default', annotations.default);
  add('examples', annotations.examples === undefined ? undefined : { kind: 'array', ...at, items: annotations.examples });
  return { kind: 'object', ...at, members };
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
