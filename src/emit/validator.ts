import { appendPointer } from '../diagnostics/diagnostic.js';
import { jsonString } from '../codegen/json-string.js';
import { canonicalJson } from '../ir/canonical.js';
import { requiredWithoutSchema, rulesOf, type AnyNode, type ArrayRules, type NumberRules, type ObjectRules, type SchemaNode, type StringRules } from '../ir/schema-node.js';
import { boundsWritten, emitBounds } from '../subset/keywords/bounds.js';
import { emitEnumCheck } from '../subset/keywords/enum.js';
import { requiredMessage, unexpectedPropertyMessage } from '../subset/keywords/object.js';
import { emitTypeCheck } from '../subset/keywords/type.js';
import type { EmitContext, EmittedCheck } from '../subset/keyword.js';
import { Code, code, lines } from '../codegen/code.js';
import { indentByBraces } from './format.js';
import type { HelperName } from '../codegen/helpers.js';

export interface ValidatorCode {
  readonly checkName: string;
  readonly collectName: string;
}

type KeywordCheck = readonly [keyword: string, check: EmittedCheck];

interface Shape {
  readonly names: ValidatorCode;
  /** `Input `/`Output ` for a root, else empty. */
  readonly label: string;
  /** Where the first schema of this shape stands. */
  readonly schemaPath: string;
  /** Every schema of this shape (each pass asks for its functions, so a count would double). */
  readonly schemas: Set<SchemaNode>;
  text: string;
  /** The same functions without types, for `--emit js`. */
  js: string;
}

/**
 * Where a value sits, for `collect`: the function's mutable path array and, for a value inline in
 * its parent's function, its key. Arrays are allocated only for an issue; a child function's call
 * pushes and pops the key instead.
 */
interface PathRef {
  readonly base: Code;
  readonly key?: Code;
}

const at = (path: PathRef): Code => (path.key === undefined ? path.base : code`[...${path.base}, ${path.key}]`);
const functionPath: PathRef = { base: Code.identifier('path') };
const keyed = (key: Code): PathRef => ({ base: functionPath.base, key });

/**
 * Schema paths in a shape's functions are relative to the shape, and `collect` takes the shape's own
 * path as its `schemaPath` argument: shapes that validate alike (the same user object in ten places)
 * then share one pair of functions, each issue still naming the schema it came from.
 */
const schemaPathAt = (relative: string): Code => (relative === '' ? code`schemaPath` : code`schemaPath + ${relative}`);

/**
 * How one pass renders the shared checks. `check` is the fast path: it returns false at the first
 * failure and allocates nothing. `collect` reports every issue with its paths.
 */
interface Pass {
  /** A statement for one keyword check at `path`. */
  failIf(keyword: string, check: EmittedCheck, schemaPath: string, path: PathRef): Code;
  /** The type check, then `rest` only for values of that type. */
  typed(typeCheck: EmittedCheck, schemaPath: string, path: PathRef, rest: Code): Code;
  /** A statement for a value that is not JSON at all. */
  notJson(value: Code, schemaPath: string, path: PathRef): Code;
  /** A statement that runs a child shape's function; `skipIfValid` for one of many siblings. */
  child(names: ValidatorCode, value: Code, path: PathRef, schemaPath: string, skipIfValid: boolean): Code;
  /** Extra loop condition: collecting stops once there are more issues than a result keeps. */
  readonly loopLimit: string;
}

const checkPass: Pass = {
  failIf: (_, check) => code`if (${check.fails}) return false;`,
  typed: (typeCheck, _, __, rest) => lines([code`if (${typeCheck.fails}) return false;`, rest]),
  notJson: () => code`return false;`,
  child: (names, value) => code`if (!${Code.identifier(names.checkName)}(${value})) return false;`,
  loopLimit: '',
};

const issue = (path: PathRef, schemaPath: string, keyword: string, message: Code, params: Code): Code => code`issues.push(issue(${at(path)}, ${schemaPathAt(schemaPath)}, ${keyword}, ${message}, ${params}));`;

const missing = (name: string, schemaPath: string, path: PathRef, value: Code): Code => issue(path, appendPointer(schemaPath, 'required'), 'required', code`${requiredMessage(name)} + ${Code.helper('absenceNote')}(${value}, ${name})`, code`{ missingProperty: ${name} }`);

const unexpected = (rules: ObjectRules, schemaPath: string): Code =>
  issue(
    keyed(Code.identifier('key')),
    appendPointer(schemaPath, 'additionalProperties'),
    'additionalProperties',
    unexpectedPropertyMessage(
      Code.identifier('key'),
      rules.properties.map((p) => p.name),
    ),
    code`{ additionalProperty: key }`,
  );

const collectPass: Pass = {
  failIf: (keyword, check, schemaPath, path) => code`if (${check.fails}) ${issue(path, appendPointer(schemaPath, keyword), keyword, check.message, check.params)}`,
  typed: (typeCheck, schemaPath, path, rest) => {
    const report = issue(path, appendPointer(schemaPath, 'type'), 'type', typeCheck.message, typeCheck.params);
    if (rest.text === '') return code`if (${typeCheck.fails}) ${report}`;
    return lines([code`if (${typeCheck.fails}) {`, report, code`} else {`, rest, code`}`]);
  },
  notJson: (value, schemaPath, path) => issue(path, schemaPath, 'type', code`"must be a JSON value, got " + ${Code.helper('describeType')}(${value})`, code`{}`),
  // An array item that passes the fast check has nothing to report, so of many items only the
  // failing ones are collected. A property is collected at once: checking it first would walk the
  // failing path again at every level.
  child: (names, value, path, schemaPath, skipIfValid) => {
    const call = code`${Code.identifier(names.collectName)}(${value}, ${path.base}, issues, ${schemaPathAt(schemaPath)});`;
    const collect = path.key === undefined ? call : lines([code`${path.base}.push(${path.key});`, call, code`${path.base}.pop();`]);
    return skipIfValid ? lines([code`if (!${Code.identifier(names.checkName)}(${value})) {`, collect, code`}`]) : collect;
  },
  loopLimit: ' && issues.length <= maxIssues',
};

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
  functionsText(language: 'ts' | 'js' = 'ts'): string {
    return this.shapeOrder
      .map((shape) => {
        const others = shape.schemas.size - 1;
        const more = others > 0 ? ` (and ${others} more ${others === 1 ? 'schema' : 'schemas'} of this shape)` : '';
        return `// ${shape.label}${shape.schemaPath.replace(/[\r\n\u2028\u2029]/g, ' ')}${more}\n${language === 'ts' ? shape.text : shape.js}`;
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
    const { string, number, array, object } = rulesOf(node);
    // Names and enum values are JSON-quoted and children are numeric ids, so the text is unambiguous.
    const parts = [node.kind, node.enum === undefined ? '' : `[${node.enum.accepted.map(canonicalJson).join(',')}]`];
    // Every bound that validates takes part, by keyword, from the bounds table.
    if (string !== undefined) parts.push(boundsWritten('string', string));
    if (number !== undefined) parts.push(boundsWritten('number', number));
    if (array !== undefined) parts.push(`${array.items === undefined ? '' : this.shapeKey(array.items)}~${boundsWritten('array', array)}`);
    if (object !== undefined) {
      const properties = object.properties.map((p) => `${jsonString(p.name)}:${this.shapeKey(p.schema)}`).join(',');
      parts.push(`${properties}~${object.required.map(jsonString).join(',')}~${object.additionalProperties === false}`);
    }
    const text = parts.join('|');
    // Interned to a short id, so a parent's key holds its children's ids and not their whole text.
    const key = this.keyOfText.get(text) ?? String(this.keyOfText.size);
    this.keyOfText.set(text, key);
    this.keyOfNode.set(node, key);
    return key;
  }

  /** One statement per keyword check of a schema at `schemaPath`. */
  private failAll(pass: Pass, checks: readonly KeywordCheck[], schemaPath: string, path: PathRef): Code[] {
    return checks.map(([keyword, check]) => pass.failIf(keyword, check, schemaPath, path));
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
    const shape: Shape = { names, label, schemaPath: node.schemaPath, schemas: new Set([node]), text: '', js: '' };
    this.shapes.set(key, shape);
    this.shapeOrder.push(shape);
    const outerPath = this.shapePath;
    this.shapePath = node.schemaPath;
    const value = Code.identifier('value');
    const check = lines([code`function ${Code.identifier(names.checkName)}(value${Code.typeOnly(': unknown')})${Code.typeOnly(': boolean')} {`, this.nodeStatements(checkPass, node, value, functionPath, base), code`return true;`, code`}`]);
    const collect = lines([
      code`function ${Code.identifier(names.collectName)}(value${Code.typeOnly(': unknown')}, path${Code.typeOnly(': PathSegment[]')}, issues${Code.typeOnly(': ValidationIssue[]')}, schemaPath${Code.typeOnly(': string')})${Code.typeOnly(': void')} {`,
      this.nodeStatements(collectPass, node, value, functionPath, base),
      code`}`,
    ]);
    this.shapePath = outerPath;
    this.carry(check);
    this.carry(collect);
    shape.text = indentByBraces(`${check.text}\n\n${collect.text}`);
    shape.js = indentByBraces(`${check.js}\n\n${collect.js}`);
    return names;
  }

  /** A child object or array gets functions of its own; scalars stay inline. */
  private childStatements(pass: Pass, node: SchemaNode, value: Code, path: PathRef, stem: string, isItem = false): Code {
    const structured = node.kind === 'object' || node.kind === 'array' || (node.kind === 'any' && hasStructuredRules(node));
    if (!structured) return this.nodeStatements(pass, node, value, path, stem);
    return pass.child(this.shapeFunctions(node, stem, ''), value, path, this.relative(node.schemaPath), isItem);
  }

  private nodeStatements(pass: Pass, node: SchemaNode, value: Code, path: PathRef, stem: string): Code {
    const schemaPath = this.relative(node.schemaPath);
    const failAll = (checks: readonly KeywordCheck[]): Code[] => this.failAll(pass, checks, schemaPath, path);
    const enumCheck = node.enum === undefined ? [] : failAll([['enum', emitEnumCheck(node.enum, value, this.context)]]);
    const typed = (body: readonly Code[]): Code => {
      const typeCheck = emitTypeCheck(node.kind as Exclude<SchemaNode['kind'], 'any'>, value, this.context.exactNumbers);
      return pass.typed(typeCheck, schemaPath, path, lines([...body, ...enumCheck]));
    };
    switch (node.kind) {
      case 'null':
      case 'boolean':
        return typed([]);
      case 'number':
      case 'integer':
        return typed(failAll(this.numberChecks(node.rules, value)));
      case 'string':
        return typed(failAll(this.stringChecks(node.rules, value)));
      case 'array':
        return typed([this.arrayStatements(pass, node.rules, schemaPath, value, path, stem)]);
      case 'object':
        return typed([this.objectStatements(pass, node.rules, schemaPath, value, path, stem)]);
      case 'any':
        return lines([this.anyStatements(pass, node, schemaPath, value, path, stem), ...enumCheck]);
    }
  }

  /** A schema without `type`: each type's rules apply to values of that type; anything else must be JSON. */
  private anyStatements(pass: Pass, node: AnyNode, schemaPath: string, value: Code, path: PathRef, stem: string): Code {
    const { string, number, array, object } = node.rules;
    const stringChecks = this.failAll(pass, this.stringChecks(string, value), schemaPath, path);
    const numberChecks = this.failAll(pass, this.numberChecks(number, value), schemaPath, path);
    const jsonOnly = code`if (!${Code.helper('isJsonValue')}(${value})) ${pass.notJson(value, schemaPath, path)}`;
    if (stringChecks.length === 0 && numberChecks.length === 0 && !hasStructuredRules(node)) return jsonOnly;
    const exact = this.context.exactNumbers;
    const isNumber = exact ? code`${Code.helper('isNumeric')}(${value})` : code`typeof ${value} === "number" && Number.isFinite(${value})`;
    return lines([
      code`if (typeof ${value} === "string") {`,
      lines(stringChecks),
      code`} else if (${isNumber}) {`,
      lines(numberChecks),
      code`} else if (Array.isArray(${value})) {`,
      isEmptyArrayRules(array) ? jsonOnly : this.arrayStatements(pass, array, schemaPath, value, path, stem),
      code`} else if (${Code.helper('isPlainObject')}(${value})) {`,
      isEmptyObjectRules(object) ? jsonOnly : this.objectStatements(pass, object, schemaPath, value, path, stem),
      code`} else if (${value} !== null && typeof ${value} !== "boolean") {`,
      pass.notJson(value, schemaPath, path),
      code`}`,
    ]);
  }

  private stringChecks(rules: StringRules, value: Code): KeywordCheck[] {
    return emitBounds('string', rules, value, this.context);
  }

  private numberChecks(rules: NumberRules, value: Code): KeywordCheck[] {
    return emitBounds('number', rules, value, this.context);
  }

  private arrayStatements(pass: Pass, rules: ArrayRules, schemaPath: string, value: Code, path: PathRef, stem: string): Code {
    const counts = emitBounds('array', rules, value, this.context);
    const item = Code.identifier('item');
    const itemPath = keyed(Code.identifier('i'));
    let itemStatements: Code;
    if (rules.items === undefined) {
      itemStatements = code`if (!${Code.helper('isJsonValue')}(${item})) ${pass.notJson(item, schemaPath, itemPath)}`;
    } else {
      itemStatements = this.childStatements(pass, rules.items, item, itemPath, `${stem}Items`, true);
    }
    return lines([...this.failAll(pass, counts, schemaPath, path), code`for (let i = 0; i < ${value}.length${Code.raw(pass.loopLimit)}; i++) {`, code`const item${Code.typeOnly(': unknown')} = ${value}[i];`, itemStatements, code`}`]);
  }

  private objectStatements(pass: Pass, rules: ObjectRules, schemaPath: string, value: Code, path: PathRef, stem: string): Code {
    return pass === checkPass ? this.objectCheck(rules, value, stem) : this.objectCollect(rules, schemaPath, value, path, stem);
  }

  /**
   * The fast path reads an object through its keys: for…in visits the own enumerable keys, the
   * properties the value has as JSON (only a polluted Object.prototype adds inherited ones, and
   * then the issue pass decides instead). Each key is sorted by a `switch` to its property's check,
   * so a non-enumerable or inherited property is never mistaken for one of the value's own, and
   * counting the required keys seen proves none is missing. A name in `required` without a schema
   * of its own is an additional property when the object is closed: it never counts.
   */
  private objectCheck(rules: ObjectRules, value: Code, stem: string): Code {
    const required = new Set(rules.required);
    const closed = rules.additionalProperties === false;
    const count = Code.identifier('required');
    const cases = rules.properties.map(({ name, schema }, index) => {
      const local = Code.identifier(`property${index}`);
      const check = this.childStatements(checkPass, schema, local, functionPath, `${stem}${propertyStem(name, index)}`);
      return lines([code`case ${name}: {`, code`const ${local} = ${value}[key];`, check, required.has(name) ? code`${count}++;` : undefined, code`continue;`, code`}`]);
    });
    if (!closed) {
      for (const name of requiredWithoutSchema(rules)) {
        cases.push(lines([code`case ${name}:`, code`if (!${Code.helper('isJsonValue')}(${value}[key])) return false;`, code`${count}++;`, code`continue;`]));
      }
    }
    const other = closed ? code`return false;` : code`if (!${Code.helper('isJsonValue')}(${value}[key])) return false;`;
    const loop = closed && cases.length === 0 ? [code`for (const _key in ${value}) return false;`] : [code`for (const key in ${value}) {`, ...(cases.length > 0 ? [code`switch (key) {`, ...cases, code`}`] : []), other, code`}`];
    return lines([rules.required.length > 0 ? code`let ${count} = 0;` : undefined, ...loop, rules.required.length > 0 ? code`if (${count} !== ${rules.required.length}) return false;` : undefined]);
  }

  /**
   * The full report, exact for any object: an object is read once through its keys (`for…in`
   * skipping inherited ones, so the verdict holds even where Object.prototype is polluted), so a
   * property counts only when it is an own enumerable one. The issues come in schema order, then
   * the other keys in key order; a required property that a plain read would find, but that is not
   * part of the value as JSON, is reported missing with the reason.
   */
  private objectCollect(rules: ObjectRules, schemaPath: string, value: Code, path: PathRef, stem: string): Code {
    const required = new Set(rules.required);
    const closed = rules.additionalProperties === false;
    const key = Code.identifier('key');
    const later = Code.identifier('later');
    // Keys reported after the properties, with what was read of them (a getter is read once).
    const keepForLater = (read: Code): Code => code`(${later} ??= []).push([${key}, ${read}]);`;
    const full = code`${later} !== undefined && ${later}.length > maxIssues`;
    const declarations: Code[] = [code`let ${later}${Code.typeOnly(': [string, unknown][] | undefined')};`];
    const cases: Code[] = [];
    const reports: Code[] = [];
    const optional: string[] = [];
    rules.properties.forEach(({ name, schema }, index) => {
      const local = Code.identifier(`property${index}`);
      declarations.push(code`let ${local}${Code.typeOnly(': unknown')};`);
      const check = this.childStatements(collectPass, schema, local, keyed(code`${name}`), `${stem}${propertyStem(name, index)}`);
      if (required.has(name)) {
        cases.push(lines([code`case ${name}:`, code`${local} = ${value}[${key}];`, code`continue;`]));
        reports.push(lines([code`if (${local} === undefined) {`, missing(name, schemaPath, path, value), code`} else {`, check, code`}`]));
      } else {
        optional.push(name);
        // An own property holding undefined is no JSON value: reported with the keys below.
        cases.push(lines([code`case ${name}:`, code`${local} = ${value}[${key}];`, code`if (${local} === undefined) ${keepForLater(code`undefined`)}`, code`continue;`]));
        reports.push(lines([code`if (${local} !== undefined) {`, check, code`}`]));
      }
    });
    requiredWithoutSchema(rules).forEach((name, index) => {
      const seen = Code.identifier(`present${index}`);
      declarations.push(code`let ${seen} = false;`);
      // Present, and still an additional property of a closed object (or an any-value one of an open object).
      cases.push(lines([code`case ${name}:`, code`${seen} = ${value}[${key}] !== undefined;`, code`break;`]));
      reports.push(code`if (!${seen}) ${missing(name, schemaPath, path, value)}`);
    });
    const member = Code.identifier('member');
    const other = closed ? keepForLater(code`undefined`) : lines([code`const ${member} = ${value}[${key}];`, code`if (!${Code.helper('isJsonValue')}(${member})) ${keepForLater(member)}`]);
    const loop = lines([
      code`for (const ${key} in ${value}) {`,
      code`if (!Object.hasOwn(${value}, ${key})) continue;`,
      ...(cases.length > 0 ? [code`switch (${key}) {`, ...cases, code`}`] : []),
      // Past what a result keeps, keys are still walked for the declared properties, but nothing else is read.
      code`if (${full}) continue;`,
      other,
      code`}`,
    ]);
    const undefinedValue = issue(keyed(key), appendPointer(schemaPath, 'properties'), 'type', code`"must be a JSON value, got undefined"`, code`{}`);
    const onOther = closed ? unexpected(rules, schemaPath) : collectPass.notJson(member, appendPointer(schemaPath, 'additionalProperties'), keyed(key));
    const laterReports = lines([
      code`if (${later} !== undefined) {`,
      closed ? code`for (const [${key}] of ${later}) {` : code`for (const [${key}, ${member}] of ${later}) {`,
      code`if (issues.length > maxIssues) break;`,
      ...(optional.length > 0 ? [code`switch (${key}) {`, ...optional.map((name) => code`case ${name}:`), undefinedValue, code`continue;`, code`}`] : []),
      onOther,
      code`}`,
      code`}`,
    ]);
    return lines([...declarations, loop, ...reports, laterReports]);
  }
}

function isEmptyArrayRules(rules: ArrayRules): boolean {
  return rules.items === undefined && rules.minItems === undefined && rules.maxItems === undefined;
}

function isEmptyObjectRules(rules: ObjectRules): boolean {
  return rules.properties.length === 0 && rules.required.length === 0 && rules.additionalProperties !== false;
}

function hasStructuredRules(node: AnyNode): boolean {
  return !isEmptyArrayRules(node.rules.array) || !isEmptyObjectRules(node.rules.object);
}

/** A readable, identifier-safe part of a function name for a property: its name, or its index. */
function propertyStem(name: string, index: number): string {
  const stem = name
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return /^[A-Za-z][A-Za-z0-9]{0,40}$/.test(stem) ? stem : `Property${index}`;
}
