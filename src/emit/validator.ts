import type { AnyNode, SchemaNode } from '../ir/schema-node.js';
import { checkPass, collectPass, functionPath, type EmitScope, type Pass, type PathRef, type ValidatorCode, type EmitContext, type EmittedCheck } from '../subset/emission.js';
import { enumValues } from '../subset/keywords/enum.js';
import { objectTypeFailsFast, readsByName } from '../subset/keywords/object.js';
import { keywordFamilies, ruleFamilies } from '../subset/keywords/index.js';
import { typeKeyword } from '../subset/keywords/type.js';
import { Code, code, join, lines } from '../codegen/code.js';
import { indentByBraces } from './format.js';
import type { HelperName } from '../codegen/helpers.js';

interface Shape {
  readonly names: ValidatorCode;
  /** `Input `/`Output ` for a root, else empty. */
  readonly label: string;
  /** Where the first schema of this shape stands. */
  readonly schemaPath: string;
  /** Every schema of this shape (each pass asks for its functions, so a count would double). */
  readonly schemas: Set<SchemaNode>;
  /** The two functions, unindented until a language is asked for (most builds want one). */
  functions?: Code;
}

/**
 * Emits, per object or array shape, a `check…` and a `collect…` function from the same checks.
 * Scalars are checked inline; small functions per shape keep each one optimisable by V8.
 */
export class ValidatorEmitter {
  readonly hoisted: Code[] = [];
  readonly helpers = new Set<HelperName>();
  private readonly usedNames = new Set<string>();
  private readonly hoistedByInit = new Map<string, Code>();
  private readonly shapes = new Map<string, Shape>();
  /** In emission order: a parent reads above its children. */
  private readonly shapeOrder: Shape[] = [];
  private readonly keyOfNode = new Map<SchemaNode, string>();
  private readonly keyOfText = new Map<string, string>();
  /** The schema path of the shape being emitted; paths inside it are written relative to it. */
  private shapePath = '';
  private readonly context: EmitContext;

  constructor(exactNumbers: boolean) {
    this.context = { exactNumbers, hoist: (prefix, init) => this.hoist(prefix, init) };
  }

  /** Emits the validator of one root schema; `stem` names its functions (`Input` → `checkInput`). */
  emitRoot(node: SchemaNode, stem: string): ValidatorCode {
    return this.shapeFunctions(node, stem, `${stem} `);
  }

  /** A module-level constant built once at load; the same initialiser always gives the same constant. */
  private hoist(prefix: string, init: Code): Code {
    const existing = this.hoistedByInit.get(init.text);
    if (existing !== undefined) return existing;
    const name = Code.identifier(this.uniqueName(prefix));
    this.hoistedByInit.set(init.text, name);
    this.carry(init);
    this.hoisted.push(code`const ${name} = ${init};`);
    return name;
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let n = 1; this.usedNames.has(name); n++) name = `${base}${n}`;
    this.usedNames.add(name);
    return name;
  }

  /** Every shape's functions, each headed by where its schema stands (and how many more places share it). */
  functionsText(language: 'ts' | 'js'): string {
    return this.shapeOrder
      .map((shape) => {
        const others = shape.schemas.size - 1;
        const more = others > 0 ? ` (and ${others} more ${others === 1 ? 'schema' : 'schemas'} of this shape)` : '';
        const functions = shape.functions!;
        return `// ${shape.label}${shape.schemaPath.replace(/[\r\n\u2028\u2029]/g, ' ')}${more}\n${indentByBraces(language === 'ts' ? functions.text : functions.js)}`;
      })
      .join('\n\n');
  }

  /** The path of a schema inside the shape being emitted. */
  private relative(schemaPath: string): string {
    return schemaPath.slice(this.shapePath.length);
  }

  /**
   * Equal keys mean equal validator code: the kind, the enum and every rule, with children by their
   * own keys. Annotations do not validate, and schema paths are relative, so neither takes part.
   */
  private shapeKey(node: SchemaNode): string {
    const known = this.keyOfNode.get(node);
    if (known !== undefined) return known;
    // Every family that validates takes part; children are numeric ids, so the text is unambiguous.
    const childKey = (child: SchemaNode): string => this.shapeKey(child);
    const parts: string[] = [];
    for (const family of keywordFamilies) if (family.shapeKey !== undefined) parts.push(family.shapeKey(node, childKey));
    const text = parts.join('|');
    // Interned to a short id, so a parent's key holds its children's ids and not their whole text.
    const key = this.keyOfText.get(text) ?? String(this.keyOfText.size);
    this.keyOfText.set(text, key);
    this.keyOfNode.set(node, key);
    return key;
  }

  /** The helpers a piece of emitted code calls become the module's: derived, never listed by hand. */
  private carry(emitted: Code): void {
    for (const name of emitted.uses) this.helpers.add(name);
  }

  /**
   * The `check`/`collect` pair of one shape, emitted once for every schema of that shape. Its slot
   * is taken before its children are emitted, so a parent reads above its children.
   */
  private shapeFunctions(node: SchemaNode, stem: string, label: string): ValidatorCode {
    const key = this.shapeKey(node);
    const existing = this.shapes.get(key);
    if (existing !== undefined) {
      existing.schemas.add(node);
      return existing.names;
    }
    const base = this.uniqueName(`check${stem}`).slice('check'.length);
    this.usedNames.add(`collect${base}`);
    const names = { checkName: `check${base}`, collectName: `collect${base}` };
    const shape: Shape = { names, label, schemaPath: node.schemaPath, schemas: new Set([node]) };
    this.shapes.set(key, shape);
    this.shapeOrder.push(shape);
    const outerPath = this.shapePath;
    this.shapePath = node.schemaPath;
    const value = Code.identifier('value');
    const check = lines([code`function ${Code.identifier(names.checkName)}(value${Code.typeOnly(': unknown')})${Code.typeOnly(': boolean')} {`, this.nodeStatements(checkPass, node, value, functionPath, base), code`return true;`, code`}`]);
    const collect = lines([
      code`function ${Code.identifier(names.collectName)}(value${Code.typeOnly(': unknown')}, path${Code.typeOnly(': PathSegment[]')}, pointer${Code.typeOnly(': string')}, issues${Code.typeOnly(': ValidationIssue[]')}, schemaPath${Code.typeOnly(': string')})${Code.typeOnly(': void')} {`,
      this.nodeStatements(collectPass, node, value, functionPath, base),
      code`}`,
    ]);
    this.shapePath = outerPath;
    shape.functions = join([check, collect], '\n\n');
    this.carry(shape.functions);
    return names;
  }

  /** A child object or array gets functions of its own; scalars stay inline. */
  private readonly childOf: ChildStatements = (pass, node, value, path, stem, isItem) => this.childStatements(pass, node, value, path, stem, isItem);

  private childStatements(pass: Pass, node: SchemaNode, value: Code, path: PathRef, stem: string, isItem = false): Code {
    const structured = node.kind === 'object' || node.kind === 'array' || (node.kind === 'any' && hasStructuredRules(node));
    if (!structured) return this.nodeStatements(pass, node, value, path, stem);
    return pass.child(this.shapeFunctions(node, stem, ''), value, path, this.relative(node.schemaPath), isItem);
  }

  private nodeStatements(pass: Pass, node: SchemaNode, value: Code, path: PathRef, stem: string): Code {
    const schemaPath = this.relative(node.schemaPath);
    const scope = new NodeScope(pass, this.context, value, path, schemaPath, stem, this.childOf);
    const enumCheck = node.enum === undefined ? undefined : pass.failIf(enumValues.definition.keyword, enumValues.emit(node.enum, value, this.context), schemaPath, path);
    if (node.kind === 'any') return lines([this.anyStatements(node, scope), enumCheck]);
    const declaredType = typeKeyword.emit(node.kind, value, this.context.exactNumbers);
    // Where the fast path reads an object's properties by name, it tests the prototype after them (objectRules' emitCheck).
    const typeCheck = pass.kind === 'check' && node.kind === 'object' && readsByName(node.rules) ? { ...declaredType, fails: objectTypeFailsFast(value) } : declaredType;
    return pass.typed(typeKeyword.definition.keyword, typeCheck, schemaPath, path, lines([this.typedStatements(node, scope), enumCheck]));
  }

  /** The rules of a schema's declared type, for a value already of that type. */
  private typedStatements(node: Exclude<SchemaNode, AnyNode>, scope: EmitScope): Code | undefined {
    switch (node.kind) {
      case 'null':
      case 'boolean':
        return undefined;
      case 'number':
      case 'integer':
        return ruleFamilies.number.emit(node.rules, scope);
      case 'string':
        return ruleFamilies.string.emit(node.rules, scope);
      case 'array':
        return ruleFamilies.array.emit(node.rules, scope);
      case 'object':
        return ruleFamilies.object.emit(node.rules, scope);
    }
  }

  /** A schema without `type`: each type's rules apply to values of that type; anything else must be JSON. */
  private anyStatements(node: AnyNode, scope: EmitScope): Code {
    const { pass, schemaPath, path, value } = scope;
    const { string, number, array, object } = node.rules;
    const stringChecks = ruleFamilies.string.emit(string, scope);
    const numberChecks = ruleFamilies.number.emit(number, scope);
    const jsonOnly = code`if (!${Code.helper('isJsonValue')}(${value})) ${pass.notJson(value, schemaPath, path)}`;
    if (stringChecks.text === '' && numberChecks.text === '' && !hasStructuredRules(node)) return jsonOnly;
    const exact = this.context.exactNumbers;
    const isNumber = exact ? code`${Code.helper('isNumeric')}(${value})` : code`typeof ${value} === "number" && Number.isFinite(${value})`;
    return lines([
      code`if (typeof ${value} === "string") {`,
      stringChecks,
      code`} else if (${isNumber}) {`,
      numberChecks,
      code`} else if (Array.isArray(${value})) {`,
      ruleFamilies.array.isEmpty(array) ? jsonOnly : ruleFamilies.array.emit(array, scope),
      code`} else if (${Code.helper('isPlainObject')}(${value})) {`,
      ruleFamilies.object.isEmpty(object) ? jsonOnly : ruleFamilies.object.emit(object, scope),
      code`} else if (${value} !== null && typeof ${value} !== "boolean") {`,
      pass.notJson(value, schemaPath, path),
      code`}`,
    ]);
  }
}

type ChildStatements = (pass: Pass, node: SchemaNode, value: Code, path: PathRef, stem: string, isItem: boolean) => Code;

/** What a family's emitter is given to check `value` against the schema at `schemaPath` in one pass. */
class NodeScope implements EmitScope {
  constructor(
    readonly pass: Pass,
    readonly context: EmitContext,
    readonly value: Code,
    readonly path: PathRef,
    readonly schemaPath: string,
    readonly stem: string,
    private readonly childOf: ChildStatements,
  ) {}

  child(schema: SchemaNode, value: Code, path: PathRef, stem: string, isItem = false): Code {
    return this.childOf(this.pass, schema, value, path, stem, isItem);
  }

  failAll(checks: readonly (readonly [keyword: string, check: EmittedCheck])[]): Code[] {
    return checks.map(([keyword, check]) => this.pass.failIf(keyword, check, this.schemaPath, this.path));
  }
}

function hasStructuredRules(node: AnyNode): boolean {
  return !ruleFamilies.array.isEmpty(node.rules.array) || !ruleFamilies.object.isEmpty(node.rules.object);
}
