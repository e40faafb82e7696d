import type { JsonNode } from '../../source/json-node.js';
import { invalidValue, readString, valuesFitF64, type KeywordDefinition } from '../keyword.js';

/** Kept in the IR (and in generated JSDoc) but never enforced. */
export const title: KeywordDefinition<string> = { keyword: 'title', group: 'all', read: readString('title') };
export const description: KeywordDefinition<string> = { keyword: 'description', group: 'all', read: readString('description') };
export const schemaUri: KeywordDefinition<string> = { keyword: '$schema', group: 'all', read: readString('$schema') };
export const id: KeywordDefinition<string> = { keyword: '$id', group: 'all', read: readString('$id') };
export const defaultValue: KeywordDefinition<JsonNode> = { keyword: 'default', group: 'all', read: (node, context) => (valuesFitF64('default', node, context) ? node : undefined) };
export const examples: KeywordDefinition<readonly JsonNode[]> = {
  keyword: 'examples',
  group: 'all',
  read: (node, context) => {
    if (node.kind !== 'array') return invalidValue(context, node, `"examples" must be an array of example values, found ${node.kind}`);
    return valuesFitF64('examples', node, context) ? node.items : undefined;
  },
};
