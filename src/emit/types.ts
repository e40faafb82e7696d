import ts from 'typescript';
import type { ContractIR } from '../contract/contract-ir.js';
import { canonicalJson } from '../ir/canonical.js';
import { rulesOf, type AnyRules, type ObjectRules, type SchemaNode } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { roundTripsThroughF64 } from '../subset/keywords/number-bounds.js';

const f = ts.factory;

export interface EmittedTypes {
  /** The declarations, printed by the TypeScript printer (which escapes every literal). */
  readonly text: string;
  readonly usesJsonValue: boolean;
}

/**
 * `Input`/`Output` declarations for a contract. A root object schema becomes an interface; nested
 * objects are inline type literals, so no invented names appear and a type reads like its schema.
 */
const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
const printContext = ts.createSourceFile('types.ts', '', ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);

export function emitTypes(contract: ContractIR, stem: string, exactNumbers: boolean): EmittedTypes {
  const state = { usesJsonValue: false, exactNumbers };
  const declarations = [
    rootDeclaration(contract.input, `${stem}Input`, `Input of the \`${contract.name}\` tool.`, state),
    rootDeclaration(contract.output, `${stem}Output`, `Output of the \`${contract.name}\` tool.`, state),
  ];
  const text = declarations.map((declaration) => reindent(printer.printNode(ts.EmitHint.Unspecified, declaration, printContext))).join('\n\n');
  return { text, usesJsonValue: state.usesJsonValue };
}

interface TypeState {
  usesJsonValue: boolean;
  /** Exact mode tells the truth: an integer may arrive as a bigint, any number as a JsonNumber. */
  readonly exactNumbers: boolean;
}

function rootDeclaration(node: SchemaNode, name: string, role: string, state: TypeState): ts.Statement {
  const exported = [f.createModifier(ts.SyntaxKind.ExportKeyword)];
  const declaration =
    node.kind === 'object' && node.enum === undefined
      ? f.createInterfaceDeclaration(exported, name, undefined, undefined, objectMembers(node.rules, state))
      : f.createTypeAliasDeclaration(exported, name, undefined, typeNode(node, state));
  return withDoc(declaration, [role, ...docLines(node)]);
}

function typeNode(node: SchemaNode, state: TypeState): ts.TypeNode {
  if (node.enum !== undefined) {
    if (node.enum.values.length === 0) return keyword(ts.SyntaxKind.NeverKeyword);
    const literals = node.enum.values.map((value) => literalType(value, state.exactNumbers));
    // In exact mode a numeric member may also arrive as a bigint or a JsonNumber of equal value.
    const numeric = state.exactNumbers && node.enum.values.some((v) => v.kind === 'number') ? [reference('NumericValue')] : [];
    return union([...literals, ...numeric]);
  }
  switch (node.kind) {
    case 'null':
      return f.createLiteralTypeNode(f.createNull());
    case 'boolean':
      return keyword(ts.SyntaxKind.BooleanKeyword);
    case 'number':
      return state.exactNumbers ? reference('NumericValue') : keyword(ts.SyntaxKind.NumberKeyword);
    case 'integer':
      return state.exactNumbers ? union([keyword(ts.SyntaxKind.NumberKeyword), keyword(ts.SyntaxKind.BigIntKeyword)]) : keyword(ts.SyntaxKind.NumberKeyword);
    case 'string':
      return keyword(ts.SyntaxKind.StringKeyword);
    case 'array':
      return f.createArrayTypeNode(node.rules.items === undefined ? jsonValue(state) : typeNode(node.rules.items, state));
    case 'object':
      return f.createTypeLiteralNode(objectMembers(node.rules, state));
    case 'any':
      return jsonValue(state);
  }
}

function objectMembers(rules: ObjectRules, state: TypeState): ts.TypeElement[] {
  const members: ts.TypeElement[] = rules.properties.map(({ name, schema }) => {
    const optional = rules.required.includes(name) ? undefined : f.createToken(ts.SyntaxKind.QuestionToken);
    return withDoc(f.createPropertySignature(undefined, propertyName(name), optional, typeNode(schema, state)), docLines(schema));
  });
  // Required names without a schema of their own can hold any JSON value.
  for (const name of rules.required.filter((n) => !rules.properties.some((p) => p.name === n))) {
    state.usesJsonValue = true;
    members.push(f.createPropertySignature(undefined, propertyName(name), undefined, jsonValue(state)));
  }
  if (rules.additionalProperties !== false) {
    const key = f.createParameterDeclaration(undefined, undefined, 'key', undefined, keyword(ts.SyntaxKind.StringKeyword));
    members.push(f.createIndexSignature(undefined, [key], keyword(ts.SyntaxKind.UnknownKeyword)));
  }
  return members;
}

function literalType(value: JsonNode, exactNumbers: boolean): ts.TypeNode {
  switch (value.kind) {
    case 'string':
      return f.createLiteralTypeNode(f.createStringLiteral(value.value));
    case 'number': {
      if (exactNumbers && !roundTripsThroughF64(value.lexeme)) return reference('JsonNumber');
      const number = Number(value.lexeme);
      const digits = f.createNumericLiteral(String(Math.abs(number)));
      return f.createLiteralTypeNode(number < 0 ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, digits) : digits);
    }
    case 'boolean':
      return f.createLiteralTypeNode(value.value ? f.createTrue() : f.createFalse());
    case 'null':
      return f.createLiteralTypeNode(f.createNull());
    case 'array':
      return f.createTupleTypeNode(value.items.map((item) => literalType(item, exactNumbers)));
    case 'object':
      return f.createTypeLiteralNode(value.members.map((m) => f.createPropertySignature(undefined, propertyName(m.key), undefined, literalType(m.value, exactNumbers))));
  }
}

function union(types: ts.TypeNode[]): ts.TypeNode {
  return types.length === 1 ? types[0]! : f.createUnionTypeNode(types);
}

function keyword(kind: ts.KeywordTypeSyntaxKind): ts.TypeNode {
  return f.createKeywordTypeNode(kind);
}

function jsonValue(state: TypeState): ts.TypeNode {
  state.usesJsonValue = true;
  return reference('JsonValue');
}

function reference(name: string): ts.TypeNode {
  return f.createTypeReferenceNode(name);
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function propertyName(name: string): ts.PropertyName {
  return identifier.test(name) ? f.createIdentifier(name) : f.createStringLiteral(name);
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
  const tags: string[] = [];
  const add = (tag: string, value: string | number | undefined): void => {
    if (value !== undefined) tags.push(`@${tag} ${value}`);
  };
  add('minLength', rules.string?.minLength?.value);
  add('maxLength', rules.string?.maxLength?.value);
  add('minimum', rules.number?.minimum?.lexeme);
  add('maximum', rules.number?.maximum?.lexeme);
  add('minItems', rules.array?.minItems?.value);
  add('maxItems', rules.array?.maxItems?.value);
  return tags;
}

/**
 * Attaches a JSDoc comment. The text is user-written, so `*\/` is broken up and every line
 * terminator (including U+2028/U+2029) starts a new comment line.
 */
function withDoc<T extends ts.Node>(node: T, docLinesText: readonly string[]): T {
  if (docLinesText.length === 0) return node;
  const docLines = docLinesText.flatMap((line) => line.split(/\r\n|[\n\r\u2028\u2029]/)).map((line) => line.replace(/\*\//g, '*\\/').trimEnd());
  const text = docLines.length === 1 ? `* ${docLines[0]} ` : `*\n${docLines.map((line) => (line === '' ? ' *' : ` * ${line}`)).join('\n')}\n `;
  return ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, text, true);
}

/** The printer indents by four spaces; the rest of a generated module uses two. */
function reindent(text: string): string {
  return text.replace(/^((?: {4})+)/gm, (spaces) => ' '.repeat(spaces.length / 2));
}
