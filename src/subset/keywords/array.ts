import { Code, code, join, lines } from '../../codegen/code.js';
import { rulesOf, type SchemaNode } from '../../ir/schema-node.js';
import { indexed } from '../emission.js';
import { countKeyword, invalidValue, reportAt, type KeywordDefinition, type TypedRuleFamily } from '../keyword.js';
import type { JsonNode } from '../../source/json-node.js';
import { boundParts, type BoundKeyword } from './bounds.js';

/** `items`: one schema for every element; the checker recurses into it. */
const items: KeywordDefinition<JsonNode> = {
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
  editor: { $ref: '#/definitions/schema', description: 'Arrays: the schema of every element (one schema; tuples are outside the subset).' },
};

const elements = (n: number): string => (n === 1 ? 'item' : 'items');

const minItems: BoundKeyword<'array'> = {
  definition: countKeyword('minItems', 'array', 'Arrays: at least this many elements.'),
  side: 'lower',
  of: (rules) => rules.minItems,
  holds: (bound, value) => value.length >= bound.value,
  emit: (bound, value) => ({
    fails: code`${value}.length < ${bound.value}`,
    message: code`${`must have at least ${bound.value} ${elements(bound.value)}, has `} + ${value}.length`,
    params: code`{ limit: ${bound.value} }`,
  }),
};

const maxItems: BoundKeyword<'array'> = {
  definition: countKeyword('maxItems', 'array', 'Arrays: at most this many elements.'),
  side: 'upper',
  of: (rules) => rules.maxItems,
  holds: (bound, value) => value.length <= bound.value,
  emit: (bound, value) => ({
    fails: code`${value}.length > ${bound.value}`,
    message: code`${`must have at most ${bound.value} ${elements(bound.value)}, has `} + ${value}.length`,
    params: code`{ limit: ${bound.value} }`,
  }),
};

const bounds = boundParts('array', [minItems, maxItems]);

const itemsOf = (node: SchemaNode): SchemaNode | undefined => rulesOf(node, 'array')?.items;

/** The array rules: `items` (one schema for every element), `minItems` and `maxItems`. */
export const arrayRules: TypedRuleFamily<'array'> = {
  group: 'array',
  keywords: [items, ...bounds.keywords],
  rules(values, schemaPath, child) {
    const source = values.get(items);
    const itemSchema = source === undefined ? undefined : child(source, `${schemaPath}/items`);
    return { ...bounds.rules(values), ...(itemSchema === undefined ? {} : { items: itemSchema }) };
  },
  isEmpty: (rules) => rules.items === undefined && bounds.isEmpty(rules),
  holds(rules, value, numeric, accepts) {
    if (!bounds.holds(rules, value, numeric)) return false;
    const itemSchema = rules.items;
    return itemSchema === undefined || value.items.every((item) => accepts(itemSchema, item));
  },
  emit(rules, scope) {
    const { pass, schemaPath, value } = scope;
    // A hole reads as undefined (not JSON, refused), never as what a prototype holds at its index.
    const item = Code.identifier('item');
    const itemPath = indexed(Code.identifier('i'));
    const itemStatements = rules.items === undefined ? code`if (!${Code.helper('isJsonValue')}(${item})) ${pass.notJson(item, schemaPath, itemPath)}` : scope.child(rules.items, item, itemPath, `${scope.stem}Items`, true);
    return lines([bounds.emit(rules, scope), code`for (let i = 0; i < ${value}.length${Code.raw(pass.loopLimit)}; i++) {`, code`const item${Code.typeOnly(': unknown')} = Object.hasOwn(${value}, i) ? ${value}[i] : undefined;`, itemStatements, code`}`]);
  },
  type(rules, scope, indent) {
    const members = rules.items === undefined ? [scope.jsonValue()] : scope.typeOf(rules.items, indent);
    return [members.length === 1 ? code`${members[0]!}[]` : code`(${join(members, ' | ')})[]`];
  },
  toJson(node, write, child) {
    const itemSchema = itemsOf(node);
    if (itemSchema !== undefined) write(items.keyword, child(itemSchema));
    bounds.toJson(node, write);
  },
  shapeKey(node, childKey) {
    if (rulesOf(node, 'array') === undefined) return '';
    const itemSchema = itemsOf(node);
    return `${itemSchema === undefined ? '' : childKey(itemSchema)}~${bounds.shapeKey(node)}`;
  },
  docLines: (node, childLines) => [...bounds.docLines(node), ...itemTags(node, childLines)],
  warn: bounds.warn,
  compare(before, after, scope) {
    bounds.compare(before, after, scope);
    const [was, now] = [rulesOf(before, 'array'), rulesOf(after, 'array')];
    if (was === undefined || now === undefined) return;
    if (was.items !== undefined && now.items !== undefined) scope.child(was.items, now.items);
    else if (was.items !== undefined) scope.change(undefined, 'widens', '"items" was removed');
    else if (now.items !== undefined) scope.change(now.items, 'narrows', '"items" was added');
  },
  children: (node) => {
    const itemSchema = itemsOf(node);
    return itemSchema === undefined ? [] : [itemSchema];
  },
};

/**
 * The tags of an array's item schema, as tags of the array (`@items.maxLength 40`, `@items.items.minimum 0`):
 * its type is `T[]`, and TypeScript keeps no JSDoc on `T`, so what only the items say would be lost to
 * a reader and to `jtc import --from ts`. The items' free text stays with the contract.
 */
function itemTags(node: SchemaNode, childLines: (schema: SchemaNode) => readonly string[]): string[] {
  const itemSchema = itemsOf(node);
  if (itemSchema === undefined) return [];
  return childLines(itemSchema)
    .filter((line) => line.startsWith('@'))
    .map((line) => `@items.${line.slice(1)}`);
}
