import type { JSDoc, Node, SourceFile, TypeNode } from 'ts-morph';
import { importOptionalPeer } from '../diagnostics/usage-error.js';
import type { JsonMember, JsonNode } from '../source/json-node.js';
import { parseToolList, type SourcePlace, type SourceTool } from './sources.js';

type TsMorph = typeof import('ts-morph');

/** ts-morph is an optional peer: only `--from ts` loads it. */
function loadTsMorph(): Promise<TsMorph> {
  return importOptionalPeer(() => import('ts-morph'), 'ts-morph', '--from ts reads TypeScript with ts-morph');
}

/**
 * Tools from TypeScript declarations: every `XInput` interface or type alias with its `XOutput`
 * (absent: any JSON value, said), converted type by type with the JSDoc tags the generated types
 * carry (`@integer`, `@minimum`, `@maxLength`, `@default`, `@example`, …), so that the output of
 * `jtc build` gives its contracts back. The name and description come from the module's
 * `ToolContract<XInput, XOutput, "name">` declaration when there is one; otherwise the name is
 * derived from `X` and the description is the JSDoc of `XInput`, each said in the report.
 */
export async function readTypeScriptTools(path: string): Promise<SourceTool[]> {
  const tsMorph = await loadTsMorph();
  const project = new tsMorph.Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { strict: true } });
  const file = project.addSourceFileAtPath(path);
  const declarations = new Map<string, Node>();
  for (const declaration of [...file.getInterfaces(), ...file.getTypeAliases()]) declarations.set(declaration.getName(), declaration);
  const stems = [...declarations.keys()].filter((name) => name.endsWith('Input') && name.length > 'Input'.length).map((name) => name.slice(0, -'Input'.length));
  return stems.map((stem) => readTool(tsMorph, path, file, declarations, stem));
}

function readTool(tsMorph: TsMorph, path: string, file: SourceFile, declarations: ReadonlyMap<string, Node>, stem: string): SourceTool {
  const input = declarations.get(`${stem}Input`)!;
  const output = declarations.get(`${stem}Output`);
  const notes: string[] = [];
  const contract = contractDeclaration(tsMorph, file, stem);
  const name = contract?.name ?? snakeCase(stem);
  if (contract === undefined) notes.push(`no ToolContract<${stem}Input, ${stem}Output, "…"> declaration names the tool; its name is derived from ${stem}`);
  const description = contract?.description ?? docText(tsMorph, input);
  if (contract?.description === undefined && description !== undefined) notes.push(`the description is the JSDoc of ${stem}Input`);
  const reader = new SchemaReader(tsMorph, declarations);
  // The schemas are built, so a finding in one is placed at the declaration it came from.
  const placeOf = (node: Node): SourcePlace => ({ file: path, ...file.getLineAndColumnAtPos(node.getStart()) });
  const places = { input: placeOf(input), ...(output === undefined ? {} : { output: placeOf(output) }) };
  try {
    const inputSchema = reader.declaration(input);
    const outputSchema = output === undefined ? undefined : reader.declaration(output);
    return { node: nodeOf({}), name, description, input: nodeOf(inputSchema), output: outputSchema === undefined ? undefined : nodeOf(outputSchema), inputField: `${stem}Input`, outputField: `${stem}Output`, notes, places };
  } catch (error) {
    if (!(error instanceof UnsupportedType)) throw error;
    return { node: nodeOf({}), name, description, input: undefined, output: undefined, inputField: `${stem}Input`, outputField: `${stem}Output`, notes, problem: { code: 'JTC501', message: error.message }, places: { ...places, problem: placeOf(error.node ?? input) } };
  }
}

/** A type with no exact schema; `node` is where it stands in the declarations (the report gives its file:line:col). */
class UnsupportedType extends Error {
  constructor(
    message: string,
    readonly node?: Node,
  ) {
    super(message);
  }
}

/** A JSON value as a parsed node, numbers kept as the tags wrote them (`Lexeme`). */
class Lexeme {
  constructor(readonly text: string) {}
}
type Value = null | boolean | string | Lexeme | readonly Value[] | { readonly [key: string]: Value };

function serialise(value: Value): string {
  if (value instanceof Lexeme) return value.text;
  if (Array.isArray(value)) return `[${value.map(serialise).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${serialise(item as Value)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** A schema as the importer takes it: a parsed node (its positions are not the declarations' own, so no place is reported in them). */
const nodeOf = (value: Value): JsonNode => parseToolList(serialise(value), 'TypeScript declarations');

function contractDeclaration(tsMorph: TsMorph, file: SourceFile, stem: string): { readonly name: string; readonly description?: string } | undefined {
  for (const variable of file.getVariableDeclarations()) {
    const type = variable.getTypeNode();
    if (type === undefined || !tsMorph.Node.isTypeReference(type) || type.getTypeName().getText() !== 'ToolContract') continue;
    const [inputArg, outputArg, nameArg] = type.getTypeArguments();
    if (inputArg?.getText() !== `${stem}Input` || outputArg?.getText() !== `${stem}Output` || nameArg === undefined || !tsMorph.Node.isLiteralTypeNode(nameArg)) continue;
    const literal = nameArg.getLiteral();
    if (!tsMorph.Node.isStringLiteral(literal)) continue;
    const initializer = variable.getInitializer();
    const property = initializer !== undefined && tsMorph.Node.isObjectLiteralExpression(initializer) ? initializer.getProperty('description') : undefined;
    const value = property !== undefined && tsMorph.Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
    const description = value !== undefined && tsMorph.Node.isStringLiteral(value) ? value.getLiteralValue() : undefined;
    return description === undefined ? { name: literal.getLiteralValue() } : { name: literal.getLiteralValue(), description };
  }
  return undefined;
}

const snakeCase = (stem: string): string =>
  stem
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

function jsDocsOf(tsMorph: TsMorph, node: Node): JSDoc[] {
  return tsMorph.Node.isJSDocable(node) ? node.getJsDocs() : [];
}

/** The free text of a declaration's JSDoc (the generated "Input of the … tool." line is not the tool's description). */
function docText(tsMorph: TsMorph, node: Node): string | undefined {
  const text = jsDocsOf(tsMorph, node)
    .map((doc) => doc.getDescription().trim())
    .join('\n')
    .trim();
  return text === '' || /^(Input|Output) of the `.*` tool\.$/.test(text) ? undefined : text;
}

const countTags = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);
const numberTags = new Set(['minimum', 'maximum']);

/** Reads declared types into schemas, the way `emit/types.ts` and the families' JSDoc wrote them. */
class SchemaReader {
  private readonly expanding = new Set<string>();

  constructor(
    private readonly tsMorph: TsMorph,
    private readonly declarations: ReadonlyMap<string, Node>,
  ) {}

  declaration(node: Node): Record<string, Value> {
    const { Node: N } = this.tsMorph;
    const schema: Record<string, Value> = N.isInterfaceDeclaration(node) ? this.members(node.getMembers()) : N.isTypeAliasDeclaration(node) ? this.type(node.getTypeNodeOrThrow(), []) : {};
    // The root's own JSDoc: its tags (the generated role line is not an annotation).
    return this.withDoc(schema, node, false);
  }

  /** Annotations and constraints from a JSDoc: title and description, then the tags. */
  private withDoc(schema: Record<string, Value>, node: Node, withText = true): Record<string, Value> {
    const docs = jsDocsOf(this.tsMorph, node);
    if (docs.length === 0) return schema;
    const result: Record<string, Value> = Object.create(null);
    const text = docs
      .map((doc) => doc.getDescription().trim())
      .join('\n')
      .trim();
    if (withText && text !== '' && !/^(Input|Output) of the `.*` tool\.$/.test(text)) {
      const paragraphs = text.split(/\n\s*\n/);
      if (paragraphs.length > 1) result['title'] = paragraphs[0]!.trim();
      result['description'] = paragraphs
        .slice(paragraphs.length > 1 ? 1 : 0)
        .join('\n\n')
        .trim();
    }
    Object.assign(result, schema);
    const examples = new Map<Record<string, Value>, Value[]>();
    for (const tag of docs.flatMap((doc) => doc.getTags())) {
      const comment = (tag.getCommentText() ?? '').trim();
      // `@items.maxLength 40` (the generated types' tags for an array's items): TypeScript reads a tag `items`.
      const itemTag = tag.getTagName() === 'items' ? /^\.((?:items\.)*)(\w+)(?:\s+([\s\S]*))?$/.exec(comment) : null;
      const target = itemTag === null ? result : itemSchemaAt(result, itemTag[1]!.split('.').length);
      const name = itemTag === null ? tag.getTagName() : itemTag[2]!;
      const value = itemTag === null ? comment : (itemTag[3] ?? '').trim();
      if (name === 'integer') {
        if (target['type'] === 'number') target['type'] = 'integer';
      } else if (countTags.has(name) || numberTags.has(name)) {
        target[name] = new Lexeme(value);
      } else if (name === 'default') {
        target['default'] = jsonValue(value, tag.getText());
      } else if (name === 'example') {
        examples.set(target, [...(examples.get(target) ?? []), jsonValue(value, tag.getText())]);
      }
    }
    for (const [target, values] of examples) target['examples'] = values;
    return result;
  }

  private members(members: readonly Node[]): Record<string, Value> {
    const { Node: N } = this.tsMorph;
    // No prototype: a property named __proto__ is a property like any other.
    const properties: Record<string, Value> = Object.create(null);
    const required: string[] = [];
    let open = false;
    for (const member of members) {
      if (N.isIndexSignatureDeclaration(member)) {
        open = true;
        continue;
      }
      if (!N.isPropertySignature(member)) throw new UnsupportedType(`${member.getText().slice(0, 60)}: only properties and an index signature make an object`, member);
      const nameNode = member.getNameNode();
      const key = N.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : member.getName();
      properties[key] = this.withDoc(this.type(member.getTypeNodeOrThrow(), jsDocsOf(this.tsMorph, member)), member);
      if (!member.hasQuestionToken()) required.push(key);
    }
    return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...(open ? {} : { additionalProperties: false }) };
  }

  private type(node: TypeNode, docs: readonly JSDoc[]): Record<string, Value> {
    const { Node: N, SyntaxKind } = this.tsMorph;
    const integerTagged = docs.some((doc) => doc.getTags().some((tag) => tag.getTagName() === 'integer'));
    if (N.isParenthesizedTypeNode(node)) return this.type(node.getTypeNode(), docs);
    if (N.isTypeLiteral(node)) return this.members(node.getMembers());
    if (N.isArrayTypeNode(node)) {
      const items = this.type(node.getElementTypeNode(), []);
      return Object.keys(items).length === 0 ? { type: 'array' } : { type: 'array', items };
    }
    // `null` alone is the null type; among other literals, a member of an enum.
    if (node.getText() === 'null') return { type: 'null' };
    const literals = N.isUnionTypeNode(node) ? node.getTypeNodes() : [node];
    if (literals.every((m) => N.isLiteralTypeNode(m))) {
      const values = literals.map((m) => literalValue(this.tsMorph, m as never));
      // Literals of one JSON type are an enum of that type, as the types of `"type"` + `"enum"` read.
      const kinds = new Set(values.map((v) => (v instanceof Lexeme ? (integerTagged ? 'integer' : 'number') : v === null ? 'null' : typeof v)));
      return kinds.size === 1 && !kinds.has('null') ? { type: [...kinds][0]! as string, enum: values } : { enum: values };
    }
    if (N.isUnionTypeNode(node)) {
      const names = node.getTypeNodes().map((m) => m.getText());
      if (names.length === 2 && names.includes('number') && names.includes('bigint')) return { type: 'integer' };
      throw new UnsupportedType(`${node.getText().slice(0, 60)}: a union other than literal values has no exact schema in the subset`, node);
    }
    switch (node.getKind()) {
      case SyntaxKind.StringKeyword:
        return { type: 'string' };
      case SyntaxKind.NumberKeyword:
        return { type: integerTagged ? 'integer' : 'number' };
      case SyntaxKind.BooleanKeyword:
        return { type: 'boolean' };
      case SyntaxKind.UnknownKeyword:
        return {};
      default:
        break;
    }
    if (N.isTypeReference(node)) {
      const name = node.getTypeName().getText();
      if (name === 'JsonValue') return {};
      if (name === 'NumericValue') return { type: 'number' };
      const declaration = this.declarations.get(name);
      if (declaration !== undefined && !this.expanding.has(name)) {
        this.expanding.add(name);
        try {
          return this.declaration(declaration);
        } finally {
          this.expanding.delete(name);
        }
      }
      throw new UnsupportedType(`${name}: ${declaration === undefined ? 'not declared in this file' : 'refers to itself, which no schema of the subset can say'}`, node);
    }
    throw new UnsupportedType(`${node.getText().slice(0, 60)}: no exact schema in the subset`, node);
  }
}

/** The item schema `depth` arrays down (`items`, `items.items`, …), made where the type said nothing of it (`JsonValue[]`). */
function itemSchemaAt(schema: Record<string, Value>, depth: number): Record<string, Value> {
  let current = schema;
  for (let level = 0; level < depth; level++) {
    const items = current['items'];
    if (typeof items !== 'object' || items === null || Array.isArray(items) || items instanceof Lexeme) current = current['items'] = Object.create(null) as Record<string, Value>;
    else current = items as Record<string, Value>;
  }
  return current;
}

function literalValue(tsMorph: TsMorph, node: import('ts-morph').LiteralTypeNode): Value {
  const literal = node.getLiteral();
  if (tsMorph.Node.isStringLiteral(literal)) return literal.getLiteralValue();
  if (tsMorph.Node.isNumericLiteral(literal)) return new Lexeme(literal.getText());
  if (tsMorph.Node.isPrefixUnaryExpression(literal)) return new Lexeme(literal.getText());
  const text = literal.getText();
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  throw new UnsupportedType(`${text}: not a JSON literal`, node);
}

/** A tag's JSON value (`@default 10`, `@example {"a": 1}`), kept exactly: numbers as written. */
function jsonValue(text: string, where: string): Value {
  const root = (() => {
    try {
      return parseToolList(text, where);
    } catch {
      throw new UnsupportedType(`${where.trim()}: the tag's value is not JSON`);
    }
  })();
  const toValue = (node: JsonNode): Value => {
    switch (node.kind) {
      case 'object':
        return Object.fromEntries(node.members.map((m: JsonMember) => [m.key, toValue(m.value)]));
      case 'array':
        return node.items.map(toValue);
      case 'number':
        return new Lexeme(node.lexeme);
      case 'string':
        return node.value;
      case 'boolean':
        return node.value;
      case 'null':
        return null;
    }
  };
  return toValue(root);
}
