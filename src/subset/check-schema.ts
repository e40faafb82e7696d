import { appendPointer, type DiagnosticInput } from '../diagnostics/diagnostic.js';
import { compactJsonBytes } from '../ir/canonical.js';
import type { Annotations, AnyRules, ArrayRules, NodeBase, NumberRules, ObjectRules, SchemaNode, StringRules, TypeName } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { evaluate, numericReading } from './evaluate.js';
import { invalidValue, reportAt, type KeywordDefinition, type ReadContext, type RuleGroup } from './keyword.js';
import { defaultValue, description, examples, id, schemaUri, title } from './keywords/annotations.js';
import { type BoundGroup, type BoundKeyword, boundKeywords } from './keywords/bounds.js';
import { enumKeyword } from './keywords/enum.js';
import { keywordTable } from './keywords/index.js';
import { additionalProperties, items, properties as propertiesKeyword, required } from './keywords/object.js';
import { type } from './keywords/type.js';
import { unsupportedAdvice } from './keywords/unsupported.js';
import { limits } from './limits.js';

export interface SchemaCheckOptions {
  readonly exactNumbers: boolean;
}

/**
 * Checks one root schema (a contract's `input` or `output`) against the subset and its limits and
 * builds its IR. Every problem is reported; the IR is returned only when there was no error.
 */
export function checkSchema(root: JsonNode, options: SchemaCheckOptions, report: (d: DiagnosticInput) => void): SchemaNode | undefined {
  let failed = false;
  const context: ReadContext = {
    exactNumbers: options.exactNumbers,
    report(diagnostic) {
      failed = true;
      report(diagnostic);
    },
  };
  const bytes = compactJsonBytes(root);
  if (bytes > limits.schemaBytes) {
    reportAt(context, 'JTC113', root, `schema is ${bytes} bytes as compact JSON; the limit is ${limits.schemaBytes}`, 'shorten descriptions and enums, or split the tool');
  }
  const node = checkNode(root, '#', 1, context, report);
  return failed ? undefined : node;
}

const groupOfType: Readonly<Record<TypeName, RuleGroup | undefined>> = {
  null: undefined,
  boolean: undefined,
  number: 'number',
  integer: 'number',
  string: 'string',
  array: 'array',
  object: 'object',
};

function checkNode(node: JsonNode, schemaPath: string, level: number, context: ReadContext, warn: (d: DiagnosticInput) => void): SchemaNode | undefined {
  if (node.kind !== 'object') {
    if (node.kind === 'boolean') {
      return reportAt(context, 'JTC111', node, `the boolean schema ${node.value} is outside the subset`, node.value ? 'use {} to accept any JSON value' : 'remove the property, or close the object with "additionalProperties": false');
    }
    return invalidValue(context, node, `a schema must be an object, found ${node.kind}`);
  }
  if (level > limits.depth) {
    return reportAt(context, 'JTC114', node, `schema is nested ${level} levels deep; the limit is ${limits.depth} (the root schema is level 1)`, 'flatten the structure');
  }

  const values = new KeywordValues();
  for (const member of node.members) {
    const definition = keywordTable.get(member.key);
    if (definition === undefined) {
      reportUnsupported(member.key, member.value, context);
      continue;
    }
    const value = definition.read(member.value, context);
    if (value !== undefined) values.set(definition, value);
  }

  const typeName = values.get(type);
  const declaredGroup = typeName === undefined ? undefined : groupOfType[typeName];
  if (typeName !== undefined) {
    for (const member of node.members) {
      const group = keywordTable.get(member.key)?.group;
      if (group === undefined || group === 'all' || group === declaredGroup) continue;
      warn({
        code: 'JTC201',
        position: member.keyPosition,
        pointer: member.value.pointer,
        message: `"${member.key}" applies to ${group} values and has no effect on a schema of type "${typeName}"`,
        hint: `remove it, or change "type"`,
      });
    }
  }

  // Sub-schemas are checked even where the declared type makes them inert: an unsupported
  // keyword is an error wherever it stands.
  const child = (child: JsonNode, path: string): SchemaNode | undefined => checkNode(child, path, level + 1, context, warn);
  const rules: AnyRules = {
    string: stringRules(values),
    number: numberRules(values),
    array: arrayRules(values, schemaPath, child),
    object: objectRules(values, schemaPath, child),
  };
  const base = withDefined<NodeBase>({
    pointer: node.pointer,
    schemaPath,
    position: node.position,
    enum: values.get(enumKeyword),
    annotations: annotations(values),
  });
  const built = nodeOfType(typeName, base, rules);
  const enumRule = built.enum;
  if (enumRule === undefined) return built;
  // Members the schema's own type or bounds reject (JTC203) can never match: they drop out of
  // the validators and the types, and stay in the exported schema as written.
  const numeric = numericReading(context.exactNumbers);
  const accepted = enumRule.values.filter((value) => evaluate(built, value, numeric, { ignoreEnum: true }));
  return accepted.length === enumRule.values.length ? built : { ...built, enum: { ...enumRule, accepted } };
}

function nodeOfType(typeName: TypeName | undefined, base: NodeBase, rules: AnyRules): SchemaNode {
  switch (typeName) {
    case undefined:
      return { ...base, kind: 'any', rules };
    case 'null':
    case 'boolean':
      return { ...base, kind: typeName };
    case 'number':
    case 'integer':
      return { ...base, kind: typeName, rules: rules.number };
    case 'string':
      return { ...base, kind: 'string', rules: rules.string };
    case 'array':
      return { ...base, kind: 'array', rules: rules.array };
    case 'object':
      return { ...base, kind: 'object', rules: rules.object };
  }
}

function reportUnsupported(keyword: string, value: JsonNode, context: ReadContext): void {
  const advice = unsupportedAdvice[keyword];
  const message = advice === undefined ? `unknown keyword ${JSON.stringify(keyword)}` : `unsupported keyword ${JSON.stringify(keyword)}`;
  reportAt(context, 'JTC104', value, message, advice ?? 'the subset takes only the keywords listed in the README; to keep a note, use "description"');
}

/** Drops undefined fields, as `exactOptionalPropertyTypes` wants optional fields absent, not undefined. */
function withDefined<T extends object>(value: { [K in keyof T]-?: T[K] | undefined }): T {
  const result: Record<string, unknown> = {};
  for (const key in value) {
    if (value[key] !== undefined) result[key] = value[key];
  }
  return result as T;
}

/**
 * Each keyword's checked value, by its definition: the definition's type is the value's, so reading
 * one back needs no cast at the call.
 */
class KeywordValues {
  private readonly byDefinition = new Map<KeywordDefinition, unknown>();

  set<T>(definition: KeywordDefinition<T>, value: T): void {
    this.byDefinition.set(definition as KeywordDefinition, value);
  }

  get<T>(definition: KeywordDefinition<T>): T | undefined {
    return this.byDefinition.get(definition as KeywordDefinition) as T | undefined;
  }
}

/** A group's bounds, as the table names them: a bound's rule field is its keyword. */
function boundRules<G extends BoundGroup>(group: G, values: KeywordValues): Record<string, unknown> {
  const rules: Record<string, unknown> = {};
  for (const keyword of boundKeywords[group] as readonly BoundKeyword<G>[]) {
    const bound = values.get(keyword.definition);
    if (bound !== undefined) rules[keyword.keyword] = bound;
  }
  return rules;
}

function stringRules(values: KeywordValues): StringRules {
  return boundRules('string', values);
}

function numberRules(values: KeywordValues): NumberRules {
  return boundRules('number', values);
}

type ChildChecker = (node: JsonNode, schemaPath: string) => SchemaNode | undefined;

function arrayRules(values: KeywordValues, schemaPath: string, child: ChildChecker): ArrayRules {
  const itemsSource = values.get(items);
  const itemSchema = itemsSource === undefined ? undefined : child(itemsSource, `${schemaPath}/items`);
  return { ...boundRules('array', values), ...(itemSchema === undefined ? {} : { items: itemSchema }) };
}

function objectRules(values: KeywordValues, schemaPath: string, child: ChildChecker): ObjectRules {
  const propertiesSource = values.get(propertiesKeyword);
  const properties = (propertiesSource?.members ?? []).flatMap((member) => {
    const schema = child(member.value, appendPointer(`${schemaPath}/properties`, member.key));
    return schema === undefined ? [] : [{ name: member.key, schema }];
  });
  return withDefined<ObjectRules>({
    properties,
    required: values.get(required) ?? [],
    additionalProperties: values.get(additionalProperties),
  });
}

function annotations(values: KeywordValues): Annotations {
  return withDefined<Annotations>({
    title: values.get(title),
    description: values.get(description),
    default: values.get(defaultValue),
    examples: values.get(examples),
    $schema: values.get(schemaUri),
    $id: values.get(id),
  });
}
