import { canonicalJson } from '../../ir/canonical.js';
import type { Annotations } from '../../ir/schema-node.js';
import type { JsonNode } from '../../source/json-node.js';
import { invalidValue, readString, valuesFitF64, withDefined, type KeywordDefinition, type KeywordFamily, type KeywordValues } from '../keyword.js';

const text = (keyword: string, description: string): KeywordDefinition<string> => ({ keyword, group: 'all', read: readString(keyword), editor: { type: 'string', description } });

const schemaUri = text('$schema', 'An annotation naming a JSON Schema dialect; kept, never enforced.');
const id = text('$id', 'An annotation identifying the schema; kept, never enforced.');
const title = text('title', 'A short name; kept in the generated JSDoc, never enforced.');
const description = text('description', 'What the value means, for people and models; kept in the generated JSDoc, never enforced.');

interface AnnotationFamily extends KeywordFamily {
  /** The annotations the values read on one schema hold, for the IR. */
  annotations(values: KeywordValues): Partial<Annotations>;
}

/** Where the IR keeps each, in the exported schema's order. */
const described: readonly { readonly definition: KeywordDefinition<string>; of(annotations: Annotations): string | undefined }[] = [
  { definition: schemaUri, of: (annotations) => annotations.$schema },
  { definition: id, of: (annotations) => annotations.$id },
  { definition: title, of: (annotations) => annotations.title },
  { definition: description, of: (annotations) => annotations.description },
];

/** Annotations that describe a schema: kept in the IR, the exported schema and the JSDoc, never enforced. */
export const descriptiveAnnotations: AnnotationFamily = {
  keywords: described.map((entry) => entry.definition),
  annotations: (values) => withDefined<Pick<Annotations, '$schema' | '$id' | 'title' | 'description'>>({ $schema: values.get(schemaUri), $id: values.get(id), title: values.get(title), description: values.get(description) }),
  toJson(node, write) {
    for (const { definition, of } of described) {
      const value = of(node.annotations);
      if (value !== undefined) write(definition.keyword, { kind: 'string', position: node.position, pointer: node.pointer, value });
    }
  },
  docLines(node) {
    const { title, description } = node.annotations;
    const lines: string[] = [];
    if (title !== undefined) lines.push(title);
    if (description !== undefined) lines.push(...(title === undefined ? [] : ['']), description);
    return lines;
  },
};

const defaultValue: KeywordDefinition<JsonNode> = {
  keyword: 'default',
  group: 'all',
  read: (node, context) => (valuesFitF64('default', node, context) ? node : undefined),
  editor: { description: 'A default value, kept as an annotation (@default); never enforced or filled in.' },
};

const examples: KeywordDefinition<readonly JsonNode[]> = {
  keyword: 'examples',
  group: 'all',
  read: (node, context) => {
    if (node.kind !== 'array') return invalidValue(context, node, `"examples" must be an array of example values, found ${node.kind}`);
    return valuesFitF64('examples', node, context) ? node.items : undefined;
  },
  editor: { type: 'array', description: 'Example values, kept as annotations (@example); never enforced.' },
};

/** Annotations that are values of the schema: kept and shown (`@default`, `@example`), and checked against their own schema (JTC207). */
export const valueAnnotations: AnnotationFamily = {
  keywords: [defaultValue, examples],
  annotations: (values) => withDefined<Pick<Annotations, 'default' | 'examples'>>({ default: values.get(defaultValue), examples: values.get(examples) }),
  toJson(node, write) {
    const { default: value, examples: list } = node.annotations;
    if (value !== undefined) write(defaultValue.keyword, value);
    if (list !== undefined) write(examples.keyword, { kind: 'array', position: node.position, pointer: node.pointer, items: list });
  },
  docLines: (node) => [...(node.annotations.default === undefined ? [] : [`@default ${canonicalJson(node.annotations.default)}`]), ...(node.annotations.examples ?? []).map((example) => `@example ${canonicalJson(example)}`)],
  warn(node, scope) {
    const check = (value: JsonNode, what: string): void => {
      if (!scope.accepts(node, value)) scope.warn('JTC207', value, `${what} ${canonicalJson(value)} is rejected by its own schema`, 'correct the value or the schema');
    };
    if (node.annotations.default !== undefined) check(node.annotations.default, '"default"');
    for (const example of node.annotations.examples ?? []) check(example, 'example');
  },
};
