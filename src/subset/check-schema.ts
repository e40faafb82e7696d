import type { DiagnosticInput } from '../diagnostics/diagnostic.js';
import { compactJsonBytes } from '../ir/canonical.js';
import type { AnyRules, NodeBase, SchemaNode, TypeName } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { evaluate } from './evaluate.js';
import { invalidValue, KeywordValues, reportAt, withDefined, type ReadContext } from './keyword.js';
import { descriptiveAnnotations, valueAnnotations } from './keywords/annotations.js';
import { enumValues } from './keywords/enum.js';
import { keywordTable, ruleFamilies } from './keywords/index.js';
import { typeKeyword } from './keywords/type.js';
import { unsupportedAdvice } from './keywords/unsupported.js';
import { limits } from './limits.js';
import { numericReading } from './numeric-reading.js';

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

  const typeName = values.get(typeKeyword.definition);
  const declaredGroup = typeName === undefined ? undefined : typeKeyword.groupOf(typeName);
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
    string: ruleFamilies.string.rules(values, schemaPath, child),
    number: ruleFamilies.number.rules(values, schemaPath, child),
    array: ruleFamilies.array.rules(values, schemaPath, child),
    object: ruleFamilies.object.rules(values, schemaPath, child),
  };
  const base = withDefined<NodeBase>({
    pointer: node.pointer,
    schemaPath,
    position: node.position,
    enum: values.get(enumValues.definition),
    annotations: { ...descriptiveAnnotations.annotations(values), ...valueAnnotations.annotations(values) },
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
