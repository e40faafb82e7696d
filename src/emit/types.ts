import type { ContractIR } from '../ir/contract-ir.js';
import { canonicalJson } from '../ir/canonical.js';
import { requiredWithoutSchema, rulesOf, type AnyRules, type ObjectRules, type SchemaNode } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { roundTripsThroughF64 } from '../runtime/json.js';
import { writtenBounds } from '../subset/keywords/bounds.js';
import { stringLiteral } from '../codegen/code.js';

export interface EmittedTypes {
  /** The declarations; every name and literal in them is written through `stringLiteral`. */
  readonly text: string;
  readonly usesJsonValue: boolean;
}

/**
 * `Input`/`Output` declarations for a contract. A root object schema becomes an interface; nested
 * objects are inline type literals, so no invented names appear and a type reads like its schema.
 * Types are printed straight from the IR: the grammar used is small (keywords, literals, unions,
 * arrays, tuples, type literals), and building TypeScript syntax trees for it cost more than the
 * validators.
 */
export function emitTypes(contract: ContractIR, stem: string, exactNumbers: boolean): EmittedTypes {
  const state = { usesJsonValue: false, exactNumbers };
  const text = [rootDeclaration(contract.input, `${stem}Input`, `Input of the \`${contract.name}\` tool.`, state), rootDeclaration(contract.output, `${stem}Output`, `Output of the \`${contract.name}\` tool.`, state)].join('\n\n');
  return { text, usesJsonValue: state.usesJsonValue };
}

interface TypeState {
  usesJsonValue: boolean;
  /** Exact mode tells the truth: an integer may arrive as a bigint, any number as a JsonNumber. */
  readonly exactNumbers: boolean;
}

/** A type as the members of a union: one entry for a plain type. */
type Union = readonly string[];

function rootDeclaration(node: SchemaNode, name: string, role: string, state: TypeState): string {
  const doc = docComment([role, ...docLines(node)], '');
  if (node.kind === 'object' && node.enum === undefined && !admitsNoObject(node.rules)) return `${doc}export interface ${name} ${objectType(node.rules, state, '')}`;
  return `${doc}export type ${name} = ${typeOf(node, state, '').join(' | ')};`;
}

/** `indent` is the indentation of the line the type starts on; nested type literals go deeper. */
function typeOf(node: SchemaNode, state: TypeState, indent: string): Union {
  if (node.enum !== undefined) {
    if (node.enum.accepted.length === 0) return ['never'];
    const literals = node.enum.accepted.map((value) => literalType(value, state.exactNumbers));
    // In exact mode a numeric member may also arrive as a bigint or a JsonNumber of equal value.
    const numeric = state.exactNumbers && node.enum.accepted.some((v) => v.kind === 'number') ? ['NumericValue'] : [];
    return [...literals, ...numeric];
  }
  switch (node.kind) {
    case 'null':
      return ['null'];
    case 'boolean':
      return ['boolean'];
    case 'number':
      return [state.exactNumbers ? 'NumericValue' : 'number'];
    case 'integer':
      return state.exactNumbers ? ['number', 'bigint'] : ['number'];
    case 'string':
      return ['string'];
    case 'array': {
      const items = node.rules.items === undefined ? [jsonValue(state)] : typeOf(node.rules.items, state, indent);
      return [items.length === 1 ? `${items[0]}[]` : `(${items.join(' | ')})[]`];
    }
    case 'object':
      return [objectType(node.rules, state, indent)];
    case 'any':
      return [jsonValue(state)];
  }
}

/** A closed object that requires a name it does not declare (JTC206): no object is valid. */
function admitsNoObject(rules: ObjectRules): boolean {
  return rules.additionalProperties === false && requiredWithoutSchema(rules).length > 0;
}

function objectType(rules: ObjectRules, state: TypeState, indent: string): string {
  if (admitsNoObject(rules)) return 'never';
  const inner = `${indent}  `;
  const required = new Set(rules.required);
  const members = rules.properties.map(({ name, schema }) => {
    const optional = required.has(name) ? '' : '?';
    return `${docComment(docLines(schema), inner)}${inner}${propertyName(name)}${optional}: ${typeOf(schema, state, inner).join(' | ')};`;
  });
  // Required names without a schema of their own can hold any JSON value.
  for (const name of requiredWithoutSchema(rules)) {
    members.push(`${inner}${propertyName(name)}: ${jsonValue(state)};`);
  }
  if (rules.additionalProperties !== false) members.push(`${inner}[key: string]: unknown;`);
  return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
}

function literalType(value: JsonNode, exactNumbers: boolean): string {
  switch (value.kind) {
    case 'string':
      return stringLiteral(value.value);
    case 'number':
      return exactNumbers && !roundTripsThroughF64(value.lexeme) ? 'JsonNumber' : String(Number(value.lexeme));
    case 'boolean':
      return String(value.value);
    case 'null':
      return 'null';
    case 'array':
      return `[${value.items.map((item) => literalType(item, exactNumbers)).join(', ')}]`;
    case 'object':
      return value.members.length === 0 ? '{}' : `{ ${value.members.map((m) => `${propertyName(m.key)}: ${literalType(m.value, exactNumbers)};`).join(' ')} }`;
  }
}

function jsonValue(state: TypeState): string {
  state.usesJsonValue = true;
  return 'JsonValue';
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function propertyName(name: string): string {
  return identifier.test(name) ? name : stringLiteral(name);
}

/** JSDoc lines: title, description, the annotations, and the constraints types cannot say. */
function docLines(node: SchemaNode): string[] {
  const { title, description, examples } = node.annotations;
  const result: string[] = [];
  if (title !== undefined) result.push(title);
  if (description !== undefined) result.push(...(title === undefined ? [] : ['']), description);
  if (node.annotations.default !== undefined) result.push(`@default ${canonicalJson(node.annotations.default)}`);
  for (const example of examples ?? []) result.push(`@example ${canonicalJson(example)}`);
  if (node.kind === 'integer') result.push('@integer');
  result.push(...constraintTags(rulesOf(node)));
  return result;
}

function constraintTags(rules: Partial<AnyRules>): string[] {
  return writtenBounds(rules).map(({ keyword, text }) => `@${keyword} ${text}`);
}

/**
 * A JSDoc comment ending in a line break, or nothing. The text is user-written, so `*\/` is broken
 * up and every line terminator (including U+2028/U+2029) starts a new comment line.
 */
function docComment(textLines: readonly string[], indent: string): string {
  if (textLines.length === 0) return '';
  const docLines = textLines.flatMap((line) => line.split(/\r\n|[\n\r\u2028\u2029]/)).map((line) => line.replace(/\*\//g, '*\\/').trimEnd());
  if (docLines.length === 1) return `${indent}/** ${docLines[0]} */\n`;
  return `${indent}/**\n${docLines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)).join('\n')}\n${indent} */\n`;
}
