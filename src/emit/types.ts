import type { ContractIR } from '../ir/contract-ir.js';
import { canonicalJson } from '../ir/canonical.js';
import { requiredWithoutSchema, rulesOf, type AnyRules, type ObjectRules, type SchemaNode } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { roundTripsThroughF64 } from '../runtime/json.js';
import { writtenBounds } from '../subset/keywords/bounds.js';
import { Code, code, docComment, join } from '../codegen/code.js';

export interface EmittedTypes {
  /** The declarations, built with the code builder like the validators: user text only ever as a literal or a comment. */
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
  const declarations = [rootDeclaration(contract.input, Code.identifier(`${stem}Input`), `Input of the \`${contract.name}\` tool.`, state), rootDeclaration(contract.output, Code.identifier(`${stem}Output`), `Output of the \`${contract.name}\` tool.`, state)];
  return { text: join(declarations, '\n\n').text, usesJsonValue: state.usesJsonValue };
}

interface TypeState {
  usesJsonValue: boolean;
  /** Exact mode tells the truth: an integer may arrive as a bigint, any number as a JsonNumber. */
  readonly exactNumbers: boolean;
}

/** A type as the members of a union: one entry for a plain type. */
type Union = readonly Code[];

const union = (members: Union): Code => join(members, ' | ');

function rootDeclaration(node: SchemaNode, name: Code, role: string, state: TypeState): Code {
  const doc = docComment([role, ...docLines(node)], '');
  if (node.kind === 'object' && node.enum === undefined && !admitsNoObject(node.rules)) return code`${doc}export interface ${name} ${objectType(node.rules, state, '')}`;
  return code`${doc}export type ${name} = ${union(typeOf(node, state, ''))};`;
}

/** `indent` is the indentation of the line the type starts on; nested type literals go deeper. */
function typeOf(node: SchemaNode, state: TypeState, indent: string): Union {
  if (node.enum !== undefined) {
    if (node.enum.accepted.length === 0) return [code`never`];
    const literals = node.enum.accepted.map((value) => literalType(value, state.exactNumbers));
    // In exact mode a numeric member may also arrive as a bigint or a JsonNumber of equal value.
    const numeric = state.exactNumbers && node.enum.accepted.some((v) => v.kind === 'number') ? [code`NumericValue`] : [];
    return [...literals, ...numeric];
  }
  switch (node.kind) {
    case 'null':
      return [code`null`];
    case 'boolean':
      return [code`boolean`];
    case 'number':
      return [state.exactNumbers ? code`NumericValue` : code`number`];
    case 'integer':
      return state.exactNumbers ? [code`number`, code`bigint`] : [code`number`];
    case 'string':
      return [code`string`];
    case 'array': {
      const items = node.rules.items === undefined ? [jsonValue(state)] : typeOf(node.rules.items, state, indent);
      return [items.length === 1 ? code`${items[0]!}[]` : code`(${union(items)})[]`];
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

function objectType(rules: ObjectRules, state: TypeState, indent: string): Code {
  if (admitsNoObject(rules)) return code`never`;
  const inner = Code.raw(`${indent}  `);
  const required = new Set(rules.required);
  const members = rules.properties.map(({ name, schema }) => {
    const optional = required.has(name) ? code`` : code`?`;
    return code`${docComment(docLines(schema), inner.text)}${inner}${memberName(name)}${optional}: ${union(typeOf(schema, state, inner.text))};`;
  });
  // Required names without a schema of their own can hold any JSON value.
  for (const name of requiredWithoutSchema(rules)) members.push(code`${inner}${memberName(name)}: ${jsonValue(state)};`);
  if (rules.additionalProperties !== false) members.push(code`${inner}[key: string]: unknown;`);
  return members.length === 0 ? code`{}` : code`{\n${join(members, '\n')}\n${Code.raw(indent)}}`;
}

function literalType(value: JsonNode, exactNumbers: boolean): Code {
  switch (value.kind) {
    case 'string':
      return code`${value.value}`;
    case 'number':
      // A number's shortest text is code as it is (never "-0": the type of zero is 0).
      return exactNumbers && !roundTripsThroughF64(value.lexeme) ? code`JsonNumber` : Code.raw(String(Number(value.lexeme)));
    case 'boolean':
      return code`${value.value}`;
    case 'null':
      return code`null`;
    case 'array':
      return code`[${join(
        value.items.map((item) => literalType(item, exactNumbers)),
        ', ',
      )}]`;
    case 'object':
      return value.members.length === 0
        ? code`{}`
        : code`{ ${join(
            value.members.map((m) => code`${memberName(m.key)}: ${literalType(m.value, exactNumbers)};`),
            ' ',
          )} }`;
  }
}

function jsonValue(state: TypeState): Code {
  state.usesJsonValue = true;
  return code`JsonValue`;
}

/** A member name of a type: an identifier as it is, anything else as a string literal (`__proto__` is an ordinary name in a type). */
function memberName(name: string): Code {
  return identifier.test(name) ? Code.identifier(name) : code`${name}`;
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

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
