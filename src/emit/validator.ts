import type { ArrayRules, NumberRules, ObjectRules, SchemaNode, StringRules } from '../ir/schema-node.js';
import { appendPointer } from '../diagnostics/diagnostic.js';
import { emitEnumCheck } from '../subset/keywords/enum.js';
import { maxItemsConstraint, minItemsConstraint } from '../subset/keywords/item-count.js';
import { maximumConstraint, minimumConstraint } from '../subset/keywords/number-bounds.js';
import { requiredMessage, unexpectedPropertyMessage } from '../subset/keywords/object.js';
import { maxLengthConstraint, minLengthConstraint } from '../subset/keywords/string-length.js';
import { emitTypeCheck } from '../subset/keywords/type.js';
import type { EmittedCheck } from '../subset/keyword.js';
import { Code, code, indent, lines } from './code.js';
import type { HelperName } from './helpers.js';

/**
 * Emits two functions per object or array shape, from the same checks: `check…` (the fast path:
 * returns false at the first failure, allocates nothing) and `collect…` (reports every issue).
 * Scalars are checked inline; small functions per shape keep each one optimisable by V8.
 */
export interface ValidatorCode {
  readonly checkName: string;
  readonly collectName: string;
}

export class ValidatorEmitter {
  readonly functions: Code[] = [];
  readonly hoisted: Code[] = [];
  readonly helpers = new Set<HelperName>();
  private readonly usedNames = new Set<string>();

  /** Emits the validator of one root schema; `stem` names its functions (`Input` → `checkInput`). */
  emitRoot(node: SchemaNode, stem: string): ValidatorCode {
    return this.shapeFunctions(node, stem, `${stem} `);
  }

  private readonly hoistedByInit = new Map<string, Code>();

  /** A module-level constant built once at load; the same initialiser always gives the same constant. */
  readonly hoist = (prefix: string, init: Code): Code => {
    const existing = this.hoistedByInit.get(init.text);
    if (existing !== undefined) return existing;
    const name = new Code(this.uniqueName(prefix));
    this.hoistedByInit.set(init.text, name);
    this.hoisted.push(code`const ${name} = ${init};`);
    return name;
  };

  private readonly shapes = new Map<SchemaNode, ValidatorCode>();

  private uniqueName(base: string): string {
    let name = base;
    for (let n = 1; this.usedNames.has(name); n++) name = `${base}${n}`;
    this.usedNames.add(name);
    return name;
  }

  private use(check: EmittedCheck): EmittedCheck {
    check.helpers.forEach((helper) => this.helpers.add(helper));
    return check;
  }

  /**
   * The `check`/`collect` pair of one shape, emitted once. The pair's slot is taken before its
   * children are emitted, so a parent reads above its children.
   */
  private shapeFunctions(node: SchemaNode, stem: string, label: string): ValidatorCode {
    const existing = this.shapes.get(node);
    if (existing !== undefined) return existing;
    const base = this.uniqueName(`check${stem}`).slice('check'.length);
    this.usedNames.add(`collect${base}`);
    const names = { checkName: `check${base}`, collectName: `collect${base}` };
    this.shapes.set(node, names);
    const slot = this.functions.length;
    this.functions.push(new Code(''));
    const value = new Code('value');
    const comment = new Code(`// ${label}${node.schemaPath.replace(/[\r\n\u2028\u2029]/g, ' ')}`);
    const check = lines([
      comment,
      code`function ${new Code(names.checkName)}(value: unknown): boolean {`,
      indent(this.checkStatements(node, value, base)),
      code`  return true;`,
      code`}`,
    ]);
    const collect = lines([
      code`function ${new Code(names.collectName)}(value: unknown, path: readonly PathSegment[], issues: ValidationIssue[]): void {`,
      indent(this.collectStatements(node, value, new Code('path'), base)),
      code`}`,
    ]);
    this.functions[slot] = new Code(`${check.text}\n\n${collect.text}`);
    return names;
  }

  /** A child object or array gets functions of its own; scalars stay inline. */
  private childFunctions(node: SchemaNode, stem: string): ValidatorCode | undefined {
    if (node.kind !== 'object' && node.kind !== 'array' && !(node.kind === 'any' && hasStructuredRules(node))) return undefined;
    return this.shapeFunctions(node, stem, '');
  }

  // ---- fast path: statements that `return false` on the first failure

  private checkStatements(node: SchemaNode, value: Code, stem: string): Code {
    const fail = (check: EmittedCheck): Code => code`if (${this.use(check).fails}) return false;`;
    const enumCheck = node.enum === undefined ? undefined : fail(emitEnumCheck(node.enum, value, this.hoist));
    switch (node.kind) {
      case 'null':
      case 'boolean':
        return lines([fail(emitTypeCheck(node.kind, value)), enumCheck]);
      case 'number':
      case 'integer':
        return lines([fail(emitTypeCheck(node.kind, value)), ...this.numberChecks(node.rules, value).map(fail), enumCheck]);
      case 'string':
        return lines([fail(emitTypeCheck('string', value)), ...this.stringChecks(node.rules, value).map(fail), enumCheck]);
      case 'array':
        return lines([fail(emitTypeCheck('array', value)), this.arrayCheck(node.rules, value, stem), enumCheck]);
      case 'object':
        return lines([fail(emitTypeCheck('object', value)), this.objectCheck(node.rules, value, stem), enumCheck]);
      case 'any':
        return lines([this.anyCheck(node, value, stem), enumCheck]);
    }
  }

  private anyCheck(node: Extract<SchemaNode, { kind: 'any' }>, value: Code, stem: string): Code {
    const { string, number, array, object } = node.rules;
    const stringChecks = this.stringChecks(string, value);
    const numberChecks = this.numberChecks(number, value);
    if (stringChecks.length === 0 && numberChecks.length === 0 && !hasStructuredRules(node)) {
      this.helpers.add('isJsonValue');
      return code`if (!isJsonValue(${value})) return false;`;
    }
    this.helpers.add('isPlainObject');
    this.helpers.add('isJsonValue');
    const fail = (check: EmittedCheck): Code => code`if (${this.use(check).fails}) return false;`;
    return lines([
      code`if (typeof ${value} === "string") {`,
      indent(lines(stringChecks.map(fail))),
      code`} else if (typeof ${value} === "number") {`,
      indent(lines([code`if (!Number.isFinite(${value})) return false;`, ...numberChecks.map(fail)])),
      code`} else if (Array.isArray(${value})) {`,
      indent(isEmptyArrayRules(array) ? code`if (!isJsonValue(${value})) return false;` : this.arrayCheck(array, value, stem)),
      code`} else if (isPlainObject(${value})) {`,
      indent(isEmptyObjectRules(object) ? code`if (!isJsonValue(${value})) return false;` : this.objectCheck(object, value, stem)),
      code`} else if (${value} !== null && typeof ${value} !== "boolean") {`,
      code`  return false;`,
      code`}`,
    ]);
  }

  private stringChecks(rules: StringRules, value: Code): EmittedCheck[] {
    return [rules.minLength && minLengthConstraint.emit(rules.minLength, value), rules.maxLength && maxLengthConstraint.emit(rules.maxLength, value)].filter(isDefined);
  }

  private numberChecks(rules: NumberRules, value: Code): EmittedCheck[] {
    return [rules.minimum && minimumConstraint.emit(rules.minimum, value), rules.maximum && maximumConstraint.emit(rules.maximum, value)].filter(isDefined);
  }

  private arrayCountChecks(rules: ArrayRules, value: Code): EmittedCheck[] {
    return [rules.minItems && minItemsConstraint.emit(rules.minItems, value), rules.maxItems && maxItemsConstraint.emit(rules.maxItems, value)].filter(isDefined);
  }

  private arrayCheck(rules: ArrayRules, value: Code, stem: string): Code {
    const fail = (check: EmittedCheck): Code => code`if (${this.use(check).fails}) return false;`;
    const counts = this.arrayCountChecks(rules, value).map(fail);
    const items = rules.items;
    if (items === undefined) {
      this.helpers.add('isJsonValue');
      return lines([...counts, code`if (!isJsonValue(${value})) return false;`]);
    }
    const item = new Code('item');
    const child = this.childFunctions(items, `${stem}Items`);
    const itemCheck = child === undefined ? this.checkStatements(items, item, stem) : code`if (!${new Code(child.checkName)}(${item})) return false;`;
    return lines([
      ...counts,
      code`for (let i = 0; i < ${value}.length; i++) {`,
      code`  const item: unknown = ${value}[i];`,
      indent(itemCheck),
      code`}`,
    ]);
  }

  private objectCheck(rules: ObjectRules, value: Code, stem: string): Code {
    const statements: Code[] = [];
    rules.properties.forEach(({ name, schema }, index) => {
      const local = new Code(`property${index}`);
      const child = this.childFunctions(schema, `${stem}${propertyStem(name, index)}`);
      const check = child === undefined ? this.checkStatements(schema, local, stem) : code`if (!${new Code(child.checkName)}(${local})) return false;`;
      const read = code`const ${local} = ${value}[${name}];`;
      if (rules.required.includes(name)) {
        statements.push(code`if (!Object.hasOwn(${value}, ${name})) return false;`, read, check);
      } else {
        statements.push(lines([code`if (Object.hasOwn(${value}, ${name})) {`, indent(lines([read, check])), code`}`]));
      }
    });
    for (const name of rules.required.filter((name) => !rules.properties.some((p) => p.name === name))) {
      statements.push(code`if (!Object.hasOwn(${value}, ${name})) return false;`);
    }
    statements.push(this.extraKeysLoop(rules, value, rules.additionalProperties === false ? code`return false;` : code`if (!isJsonValue(${value}[key])) return false;`));
    return lines(statements);
  }

  /**
   * Visits every own key not named in `properties`. for…in allocates nothing; the `hasOwn`
   * test keeps inherited keys out, so only own properties count, as the spec requires.
   */
  private extraKeysLoop(rules: ObjectRules, value: Code, onExtra: Code): Code {
    if (rules.additionalProperties !== false) this.helpers.add('isJsonValue');
    const known = rules.properties.map((p) => code`    case ${p.name}:`);
    const skipKnown = known.length === 0 ? [] : [code`  switch (key) {`, ...known, code`      continue;`, code`  }`];
    return lines([code`for (const key in ${value}) {`, ...skipKnown, code`  if (Object.hasOwn(${value}, key)) {`, indent(onExtra, 2), code`  }`, code`}`]);
  }

  // ---- full report: statements that push every issue

  private collectStatements(node: SchemaNode, value: Code, path: Code, stem: string): Code {
    const report = (keyword: string, check: EmittedCheck, at: Code = path): Code =>
      code`issues.push(issue(${at}, ${appendPointer(node.schemaPath, keyword)}, ${keyword}, ${check.message}, ${check.params}));`;
    const reportIf = (keyword: string, check: EmittedCheck): Code => code`if (${this.use(check).fails}) ${report(keyword, check)}`;
    const enumCheck = node.enum === undefined ? undefined : reportIf('enum', emitEnumCheck(node.enum, value, this.hoist));
    const typed = (typeCheck: EmittedCheck, body: readonly (Code | undefined)[]): Code => {
      this.use(typeCheck);
      const rest = lines([...body, enumCheck]);
      if (rest.text === '') return code`if (${typeCheck.fails}) ${report('type', typeCheck)}`;
      return lines([code`if (${typeCheck.fails}) {`, indent(report('type', typeCheck)), code`} else {`, indent(rest), code`}`]);
    };
    switch (node.kind) {
      case 'null':
      case 'boolean':
        return typed(emitTypeCheck(node.kind, value), []);
      case 'number':
      case 'integer':
        return typed(emitTypeCheck(node.kind, value), [
          ...zipChecks(['minimum', 'maximum'], [node.rules.minimum && minimumConstraint.emit(node.rules.minimum, value), node.rules.maximum && maximumConstraint.emit(node.rules.maximum, value)]).map(([k, c]) => reportIf(k, c)),
        ]);
      case 'string':
        return typed(emitTypeCheck('string', value), [
          ...zipChecks(['minLength', 'maxLength'], [node.rules.minLength && minLengthConstraint.emit(node.rules.minLength, value), node.rules.maxLength && maxLengthConstraint.emit(node.rules.maxLength, value)]).map(([k, c]) => reportIf(k, c)),
        ]);
      case 'array':
        return typed(emitTypeCheck('array', value), [this.arrayCollect(node.rules, node.schemaPath, value, path, stem, reportIf)]);
      case 'object':
        return typed(emitTypeCheck('object', value), [this.objectCollect(node.rules, node.schemaPath, value, path, stem)]);
      case 'any':
        return lines([this.anyCollect(node, value, path, stem, reportIf), enumCheck]);
    }
  }

  private anyCollect(node: Extract<SchemaNode, { kind: 'any' }>, value: Code, path: Code, stem: string, reportIf: (keyword: string, check: EmittedCheck) => Code): Code {
    this.helpers.add('isJsonValue');
    this.helpers.add('describeType');
    const notJson = code`issues.push(issue(${path}, ${node.schemaPath}, "type", "must be a JSON value, got " + describeType(${value}), {}));`;
    const { string, number, array, object } = node.rules;
    const stringChecks = zipChecks(['minLength', 'maxLength'], [string.minLength && minLengthConstraint.emit(string.minLength, value), string.maxLength && maxLengthConstraint.emit(string.maxLength, value)]);
    const numberChecks = zipChecks(['minimum', 'maximum'], [number.minimum && minimumConstraint.emit(number.minimum, value), number.maximum && maximumConstraint.emit(number.maximum, value)]);
    if (stringChecks.length === 0 && numberChecks.length === 0 && !hasStructuredRules(node)) {
      return code`if (!isJsonValue(${value})) ${notJson}`;
    }
    this.helpers.add('isPlainObject');
    const jsonOnly = code`if (!isJsonValue(${value})) ${notJson}`;
    return lines([
      code`if (typeof ${value} === "string") {`,
      indent(lines(stringChecks.map(([k, c]) => reportIf(k, c)))),
      code`} else if (typeof ${value} === "number") {`,
      indent(lines([code`if (!Number.isFinite(${value})) ${notJson}`, ...numberChecks.map(([k, c]) => reportIf(k, c))])),
      code`} else if (Array.isArray(${value})) {`,
      indent(isEmptyArrayRules(array) ? jsonOnly : this.arrayCollect(array, node.schemaPath, value, path, stem, reportIf)),
      code`} else if (isPlainObject(${value})) {`,
      indent(isEmptyObjectRules(object) ? jsonOnly : this.objectCollect(object, node.schemaPath, value, path, stem)),
      code`} else if (${value} !== null && typeof ${value} !== "boolean") {`,
      indent(notJson),
      code`}`,
    ]);
  }

  private arrayCollect(rules: ArrayRules, schemaPath: string, value: Code, path: Code, stem: string, reportIf: (keyword: string, check: EmittedCheck) => Code): Code {
    const counts = zipChecks(['minItems', 'maxItems'], [rules.minItems && minItemsConstraint.emit(rules.minItems, value), rules.maxItems && maxItemsConstraint.emit(rules.maxItems, value)]).map(([k, c]) => reportIf(k, c));
    const items = rules.items;
    const itemPath = code`[...${path}, i]`;
    const item = new Code('item');
    let itemCollect: Code;
    if (items === undefined) {
      this.helpers.add('isJsonValue');
      this.helpers.add('describeType');
      itemCollect = code`if (!isJsonValue(${item})) issues.push(issue(${itemPath}, ${schemaPath}, "type", "must be a JSON value, got " + describeType(${item}), {}));`;
    } else {
      const child = this.childFunctions(items, `${stem}Items`);
      itemCollect = child === undefined ? this.collectStatements(items, item, itemPath, stem) : code`${new Code(child.collectName)}(${item}, ${itemPath}, issues);`;
    }
    return lines([
      ...counts,
      code`for (let i = 0; i < ${value}.length && issues.length <= maxIssues; i++) {`,
      code`  const item: unknown = ${value}[i];`,
      indent(itemCollect),
      code`}`,
    ]);
  }

  private objectCollect(rules: ObjectRules, schemaPath: string, value: Code, path: Code, stem: string): Code {
    const statements: Code[] = [];
    const missing = (name: string): Code =>
      code`issues.push(issue(${path}, ${appendPointer(schemaPath, 'required')}, "required", ${requiredMessage(name)}, { missingProperty: ${name} }));`;
    rules.properties.forEach(({ name, schema }, index) => {
      const local = new Code(`property${index}`);
      const propertyPath = code`[...${path}, ${name}]`;
      const child = this.childFunctions(schema, `${stem}${propertyStem(name, index)}`);
      const collect = child === undefined ? this.collectStatements(schema, local, propertyPath, stem) : code`${new Code(child.collectName)}(${local}, ${propertyPath}, issues);`;
      const present = lines([code`const ${local} = ${value}[${name}];`, collect]);
      if (rules.required.includes(name)) {
        statements.push(lines([code`if (!Object.hasOwn(${value}, ${name})) {`, indent(missing(name)), code`} else {`, indent(present), code`}`]));
      } else {
        statements.push(lines([code`if (Object.hasOwn(${value}, ${name})) {`, indent(present), code`}`]));
      }
    });
    for (const name of rules.required.filter((name) => !rules.properties.some((p) => p.name === name))) {
      statements.push(code`if (!Object.hasOwn(${value}, ${name})) ${missing(name)}`);
    }
    const keyPath = code`[...${path}, key]`;
    const onExtra =
      rules.additionalProperties === false
        ? code`issues.push(issue(${keyPath}, ${appendPointer(schemaPath, 'additionalProperties')}, "additionalProperties", ${unexpectedPropertyMessage(new Code('key'), rules.properties.map((p) => p.name))}, { additionalProperty: key }));`
        : code`if (!isJsonValue(${value}[key])) issues.push(issue(${keyPath}, ${appendPointer(schemaPath, 'additionalProperties')}, "type", "must be a JSON value, got " + describeType(${value}[key]), {}));`;
    if (rules.additionalProperties !== false) this.helpers.add('describeType');
    statements.push(this.extraKeysLoop(rules, value, onExtra));
    return lines(statements);
  }
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

function zipChecks(keywords: readonly string[], checks: readonly (EmittedCheck | undefined)[]): [string, EmittedCheck][] {
  return checks.flatMap((check, i) => (check === undefined ? [] : [[keywords[i]!, check] as [string, EmittedCheck]]));
}

function isEmptyArrayRules(rules: ArrayRules): boolean {
  return rules.items === undefined && rules.minItems === undefined && rules.maxItems === undefined;
}

function isEmptyObjectRules(rules: ObjectRules): boolean {
  return rules.properties.length === 0 && rules.required.length === 0 && rules.additionalProperties !== false;
}

function hasStructuredRules(node: Extract<SchemaNode, { kind: 'any' }>): boolean {
  return !isEmptyArrayRules(node.rules.array) || !isEmptyObjectRules(node.rules.object);
}

/** A readable, identifier-safe part of a function name for a property: its name, or its index. */
function propertyStem(name: string, index: number): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  const stem = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z][A-Za-z0-9]{0,40}$/.test(stem) ? stem : `Property${index}`;
}

