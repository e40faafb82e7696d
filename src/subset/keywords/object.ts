import { code, type Code } from '../../codegen/code.js';
import type { JsonNode, JsonObjectNode } from '../../source/json-node.js';
import { invalidValue, reportAt, type KeywordDefinition } from '../keyword.js';
import { limits } from '../limits.js';

/** `properties`: read as the member list; the checker turns each member into a schema. */
export const properties: KeywordDefinition<JsonObjectNode> = {
  keyword: 'properties',
  group: 'object',
  read(node, context) {
    if (node.kind !== 'object') return invalidValue(context, node, `"properties" must be an object mapping names to schemas, found ${node.kind}`);
    if (node.members.length > limits.properties) {
      return reportAt(context, 'JTC115', node, `"properties" has ${node.members.length} entries; the limit is ${limits.properties}`, 'group related properties into nested objects');
    }
    return node;
  },
};

export const required: KeywordDefinition<readonly string[]> = {
  keyword: 'required',
  group: 'object',
  read(node, context) {
    if (node.kind !== 'array') return invalidValue(context, node, `"required" must be an array of property names, found ${node.kind}`);
    const names = new Set<string>();
    for (const item of node.items) {
      if (item.kind !== 'string') return invalidValue(context, item, `"required" entries must be strings, found ${item.kind}`);
      if (names.has(item.value)) return invalidValue(context, item, `"required" lists ${JSON.stringify(item.value)} twice`, 'list each name once');
      names.add(item.value);
    }
    return [...names];
  },
};

export const additionalProperties: KeywordDefinition<boolean> = {
  keyword: 'additionalProperties',
  group: 'object',
  read(node, context) {
    if (node.kind === 'boolean') return node.value;
    if (node.kind === 'object') {
      return reportAt(context, 'JTC108', node, '"additionalProperties" is a schema; the subset takes only true or false', 'list the allowed keys in "properties" with "additionalProperties": false, or use an array of {key, value} objects for open-ended maps');
    }
    return invalidValue(context, node, `"additionalProperties" must be true or false, found ${node.kind}`);
  },
};

export function requiredMessage(name: string): Code {
  return code`${`missing required property ${JSON.stringify(name)}`}`;
}

/** Names the unexpected key and, for a model to correct itself, what is allowed. */
export function unexpectedPropertyMessage(key: Code, allowed: readonly string[]): Code {
  const allowedText = allowed.length === 0 ? '; no properties are allowed' : `; allowed: ${allowed.join(', ')}`;
  return code`"unexpected property " + JSON.stringify(${key}) + ${allowedText}`;
}

/** `items`: one schema for every element; the checker recurses into it. */
export const items: KeywordDefinition<JsonNode> = {
  keyword: 'items',
  group: 'array',
  read(node, context) {
    if (node.kind === 'object') return node;
    if (node.kind === 'array') {
      return reportAt(context, 'JTC109', node, '"items" is an array (a tuple); the subset takes one schema for every element', 'use an object with named properties instead of a positional tuple');
    }
    if (node.kind === 'boolean') {
      return reportAt(context, 'JTC111', node, `"items" is the boolean schema ${node.value}; boolean schemas are outside the subset`, node.value ? 'use {} to accept any element' : 'use "maxItems": 0 to allow only empty arrays');
    }
    return invalidValue(context, node, `"items" must be a schema object, found ${node.kind}`);
  },
};
