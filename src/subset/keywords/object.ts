import { appendPointer } from '../../diagnostics/diagnostic.js';
import { Code, code, join, lines, typeMemberName } from '../../codegen/code.js';
import { jsonString } from '../../codegen/json-string.js';
import { rulesOf, type ObjectRules, type SchemaNode } from '../../ir/schema-node.js';
import type { JsonObjectNode } from '../../source/json-node.js';
import { collectPass, functionPath, issue, keyed, named, type EmitScope, type PathRef } from '../emission.js';
import { replaceValue } from '../../source/edits.js';
import { invalidValue, reportAt, type KeywordDefinition, type KeywordRewriter, type TypedRuleFamily } from '../keyword.js';
import { limits } from '../limits.js';

const schemaRef = { $ref: '#/definitions/schema' };

/** `properties`: read as the member list; the checker turns each member into a schema. */
const properties: KeywordDefinition<JsonObjectNode> = {
  keyword: 'properties',
  group: 'object',
  read(node, context) {
    if (node.kind !== 'object') return invalidValue(context, node, `"properties" must be an object mapping names to schemas, found ${node.kind}`);
    if (node.members.length > limits.properties) {
      return reportAt(context, 'JTC115', node, `"properties" has ${node.members.length} entries; the limit is ${limits.properties}`, 'group related properties into nested objects');
    }
    return node;
  },
  editor: { type: 'object', maxProperties: limits.properties, additionalProperties: schemaRef, description: `Objects: the schema of each named own property. At most ${limits.properties}.` },
};

const required: KeywordDefinition<readonly string[]> = {
  keyword: 'required',
  group: 'object',
  read(node, context) {
    if (node.kind !== 'array') return invalidValue(context, node, `"required" must be an array of property names, found ${node.kind}`);
    const names = new Set<string>();
    for (const item of node.items) {
      if (item.kind !== 'string') return invalidValue(context, item, `"required" entries must be strings, found ${item.kind}`);
      if (names.has(item.value)) return invalidValue(context, item, `"required" lists ${JSON.stringify(item.value)} twice`, 'list each name once');
      names.add(item.value);
    }
    return [...names];
  },
  editor: { type: 'array', items: { type: 'string' }, uniqueItems: true, description: 'Objects: the own properties that must be present.' },
};

const additionalProperties: KeywordDefinition<boolean> = {
  keyword: 'additionalProperties',
  group: 'object',
  read(node, context) {
    if (node.kind === 'boolean') return node.value;
    if (node.kind === 'object') {
      return reportAt(context, 'JTC108', node, '"additionalProperties" is a schema; the subset takes only true or false', 'list the allowed keys in "properties" with "additionalProperties": false, or use an array of {key, value} objects for open-ended maps');
    }
    return invalidValue(context, node, `"additionalProperties" must be true or false, found ${node.kind}`);
  },
  editor: { type: 'boolean', description: 'Objects: false forbids properties not named in "properties"; absent means true. Only true or false.' },
};

/** The empty schema accepts any value, so `"additionalProperties": {}` says what `true` says. */
const emptySchemaAsTrue: KeywordRewriter = ({ text, member }) => {
  const value = member.value;
  if (value.kind !== 'object' || value.members.length > 0) return undefined;
  return { title: `replace "${member.key}": {} with true (the empty schema accepts any value)`, edits: [replaceValue(text, value, 'true')], pointer: value.pointer };
};

/** Names `required` lists that `properties` gives no schema of their own: any JSON value will do. */
function requiredWithoutSchema(rules: ObjectRules): string[] {
  const declared = new Set(rules.properties.map((p) => p.name));
  return rules.required.filter((name) => !declared.has(name));
}

/** A closed object that requires a name it does not declare (JTC206): no object is valid. */
export function admitsNoObject(rules: ObjectRules): boolean {
  return rules.additionalProperties === false && requiredWithoutSchema(rules).length > 0;
}

const missing = (name: string, schemaPath: string, path: PathRef, value: Code): Code => issue(path, appendPointer(schemaPath, 'required'), 'required', code`${`missing required property ${JSON.stringify(name)}`} + ${Code.helper('absenceNote')}(${value}, ${name})`, code`{ missingProperty: ${name} }`);

/** Names the unexpected key and, for a model to correct itself, what is allowed. */
function unexpected(rules: ObjectRules, schemaPath: string): Code {
  const key = Code.identifier('key');
  const allowed = rules.properties.map((p) => p.name);
  const allowedText = allowed.length === 0 ? '; no properties are allowed' : `; allowed: ${allowed.join(', ')}`;
  return issue(keyed(key), appendPointer(schemaPath, 'additionalProperties'), 'additionalProperties', code`"unexpected property " + JSON.stringify(${key}) + ${allowedText}`, code`{ additionalProperty: key }`);
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

/**
 * The fast path walks an object's keys with for…in, which visits the own enumerable keys, the
 * properties the value has as JSON (only a polluted Object.prototype adds inherited ones, and then
 * the issue pass decides instead), and sorts each by a `switch`. How it reads the properties
 * depends on the object's shapes (`readsByName`). Where it reads them by key, a required name that
 * `in` finds nowhere on the object, own or inherited, is missing, so the check returns before the
 * walk; `in` runs no getter, and a name it does find is still proved the object's own by the walk.
 */
function emitCheck(rules: ObjectRules, scope: EmitScope): Code {
  const closed = rules.additionalProperties === false;
  const count = Code.identifier('required');
  const key = Code.identifier('key');
  const byName = readsByName(rules);
  const cases = byName ? namedCases(rules) : keyedCases(rules, scope);
  if (!closed) {
    for (const name of requiredWithoutSchema(rules)) {
      cases.push(lines([code`case ${name}:`, code`if (!${Code.helper('isJsonValue')}(${scope.value}[${key}])) return false;`, code`${count}++;`, code`continue;`]));
    }
  }
  const other = closed ? code`return false;` : code`if (!${Code.helper('isJsonValue')}(${scope.value}[${key}])) return false;`;
  const loop = closed && cases.length === 0 ? [code`for (const _key in ${scope.value}) return false;`] : [code`for (const ${key} in ${scope.value}) {`, ...(cases.length > 0 ? [code`switch (${key}) {`, ...cases, code`}`] : []), other, code`}`];
  return lines([
    ...(byName ? [] : rules.required.map((name) => code`if (!(${name} in ${scope.value})) return false;`)),
    rules.required.length > 0 ? code`let ${count} = 0;` : undefined,
    ...loop,
    rules.required.length > 0 ? code`if (${count} !== ${rules.required.length}) return false;` : undefined,
    ...(byName ? [...namedReads(rules, scope), code`if (!${Code.helper('hasPlainPrototype')}(${scope.value})) return false;`] : []),
  ]);
}

/**
 * An object whose declared properties are all required has one set of keys, so the values it meets
 * take few shapes: its properties are read by their names after the loop has counted them (every
 * one the object's own, so a non-enumerable or inherited stand-in is never read), and its prototype
 * is tested last. Those are what the engine compiles best on one shape: reads at fixed places, and
 * a prototype it already knows. Where properties are optional, the values take many shapes, and a
 * read by name on many shapes costs more than the loop's own read of each key.
 *
 * Measured (callgrind, instructions a call of moltar's closed data type, 2026-12-02; ours 525, ata
 * 310): counting the keys without the `switch`, as ata does, 426. Not taken: a count proves nothing
 * about names, so it takes an object whose declared property is own but not enumerable, or
 * inherited without being enumerable (`constructor`, or `Object.defineProperty(Object.prototype,
 * …)`, which the once-per-call pollution test does not see), beside one extra key: as many keys as
 * names, every name readable. The cases it must not lose: test/emit/pollution-matrix.test.ts, "own
 * but not enumerable, and an extra key" and "inherited required …, not enumerable". The reads by
 * name come after the walk for the same reason: read first (ata's order, 504) they would run a
 * getter of such a stand-in that the walk then refuses.
 */
export function readsByName(rules: ObjectRules): boolean {
  const requiredNames = new Set(rules.required);
  return rules.properties.length > 0 && rules.properties.every((p) => requiredNames.has(p.name));
}

/** The loop only counts the declared names; `namedReads` checks them. */
function namedCases(rules: ObjectRules): Code[] {
  return [lines([...rules.properties.map(({ name }) => code`case ${name}:`), code`${Code.identifier('required')}++;`, code`continue;`])];
}

function namedReads(rules: ObjectRules, scope: EmitScope): Code[] {
  return rules.properties.map(({ name, schema }, index) => {
    const local = Code.identifier(`property${index}`);
    return lines([code`const ${local} = ${scope.value}[${name}];`, scope.child(schema, local, functionPath, `${scope.stem}${propertyStem(name, index)}`)]);
  });
}

/** Each key's case reads and checks its property; counting the required keys seen proves none is missing. */
function keyedCases(rules: ObjectRules, scope: EmitScope): Code[] {
  const requiredNames = new Set(rules.required);
  return rules.properties.map(({ name, schema }, index) => {
    const local = Code.identifier(`property${index}`);
    const check = scope.child(schema, local, functionPath, `${scope.stem}${propertyStem(name, index)}`);
    return lines([code`case ${name}: {`, code`const ${local} = ${scope.value}[key];`, check, requiredNames.has(name) ? code`${Code.identifier('required')}++;` : undefined, code`continue;`, code`}`]);
  });
}

/** The check pass's type test for an object whose properties it reads by name: the prototype is tested last. */
export const objectTypeFailsFast = (value: Code): Code => code`!${Code.helper('isObjectRecord')}(${value})`;

/**
 * The full report, exact for any object: an object is read once through its keys (`for…in`
 * skipping inherited ones, so the verdict holds even where Object.prototype is polluted), so a
 * property counts only when it is an own enumerable one. The issues come in schema order, then
 * the other keys in key order; a required property that a plain read would find, but that is not
 * part of the value as JSON, is reported missing with the reason.
 */
function emitCollect(rules: ObjectRules, scope: EmitScope): Code {
  const { value, stem, schemaPath, path } = scope;
  const requiredNames = new Set(rules.required);
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
    const check = scope.child(schema, local, named(name), `${stem}${propertyStem(name, index)}`);
    if (requiredNames.has(name)) {
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
  // for…in visits an inherited key only where Object.prototype has an enumerable one, tested once
  // per object before its walk. Then the object's own keys are the ones Object.keys lists (what
  // JSON.stringify sees): Object.hasOwn would take an inherited key for an own one on a Proxy whose
  // `ownKeys` leaves out a property its `getOwnPropertyDescriptor` still reports.
  const ownKeys = Code.identifier('ownKeys');
  const loop = lines([
    code`const ${ownKeys} = objectPrototypeIsClean() ? undefined : new Set(Object.keys(${value}));`,
    code`for (const ${key} in ${value}) {`,
    code`if (${ownKeys} !== undefined && !${ownKeys}.has(${key})) continue;`,
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

const objectOf = (node: SchemaNode): ObjectRules | undefined => rulesOf(node, 'object');

/** The object rules: `properties`, `required` and `additionalProperties` (only true or false). */
export const objectRules: TypedRuleFamily<'object'> = {
  group: 'object',
  keywords: [properties, required, additionalProperties],
  rules(values, schemaPath, child) {
    const declared = (values.get(properties)?.members ?? []).flatMap((member) => {
      const schema = child(member.value, appendPointer(`${schemaPath}/properties`, member.key));
      return schema === undefined ? [] : [{ name: member.key, schema }];
    });
    const closed = values.get(additionalProperties);
    return { properties: declared, required: values.get(required) ?? [], ...(closed === undefined ? {} : { additionalProperties: closed }) };
  },
  isEmpty: (rules) => rules.properties.length === 0 && rules.required.length === 0 && rules.additionalProperties !== false,
  holds(rules, value, _numeric, accepts) {
    const members = new Map(value.members.map((m) => [m.key, m.value]));
    if (!rules.required.every((name) => members.has(name))) return false;
    for (const { name, schema } of rules.properties) {
      const propertyValue = members.get(name);
      if (propertyValue !== undefined && !accepts(schema, propertyValue)) return false;
    }
    if (rules.additionalProperties !== false) return true;
    const declared = new Set(rules.properties.map((p) => p.name));
    return value.members.every((m) => declared.has(m.key));
  },
  emit: (rules, scope) => (scope.pass.kind === 'check' ? emitCheck(rules, scope) : emitCollect(rules, scope)),
  type(rules, scope, indent) {
    if (admitsNoObject(rules)) return [code`never`];
    const inner = Code.raw(`${indent}  `);
    const requiredNames = new Set(rules.required);
    const members = rules.properties.map(({ name, schema }) => {
      const optional = requiredNames.has(name) ? code`` : code`?`;
      return code`${scope.doc(schema, inner.text)}${inner}${typeMemberName(name)}${optional}: ${join(scope.typeOf(schema, inner.text), ' | ')};`;
    });
    // Required names without a schema of their own can hold any JSON value.
    for (const name of requiredWithoutSchema(rules)) members.push(code`${inner}${typeMemberName(name)}: ${scope.jsonValue()};`);
    if (rules.additionalProperties !== false) members.push(code`${inner}[key: string]: unknown;`);
    return [members.length === 0 ? code`{}` : code`{\n${join(members, '\n')}\n${Code.raw(indent)}}`];
  },
  toJson(node, write, child) {
    const object = objectOf(node);
    if (object === undefined) return;
    const at = { position: node.position, pointer: node.pointer };
    if (object.properties.length > 0) write(properties.keyword, { kind: 'object', ...at, members: object.properties.map((p) => ({ key: p.name, keyPosition: node.position, value: child(p.schema) })) });
    if (object.required.length > 0) write(required.keyword, { kind: 'array', ...at, items: object.required.map((name) => ({ kind: 'string', ...at, value: name })) });
    if (object.additionalProperties !== undefined) write(additionalProperties.keyword, { kind: 'boolean', ...at, value: object.additionalProperties });
  },
  // Names are JSON-quoted and children are ids, so the text is unambiguous.
  shapeKey(node, childKey) {
    const object = objectOf(node);
    if (object === undefined) return '';
    const declared = object.properties.map((p) => `${jsonString(p.name)}:${childKey(p.schema)}`).join(',');
    return `${declared}~${object.required.map(jsonString).join(',')}~${object.additionalProperties === false}`;
  },
  warn(node, scope) {
    const object = objectOf(node);
    if (object?.additionalProperties !== false) return;
    for (const name of requiredWithoutSchema(object)) {
      scope.warn('JTC206', node, `"required" names ${JSON.stringify(name)}, which "additionalProperties": false forbids: no object is valid`, `add ${JSON.stringify(name)} to "properties"`);
    }
  },
  compare(before, after, scope) {
    const [oldRules, newRules] = [objectOf(before), objectOf(after)];
    if (oldRules === undefined || newRules === undefined) return;
    const oldRequired = new Set(oldRules.required);
    const newRequired = new Set(newRules.required);
    for (const name of newRules.required) if (!oldRequired.has(name)) scope.change(undefined, 'narrows', `property "${name}" became required`);
    for (const name of oldRules.required) if (!newRequired.has(name)) scope.change(undefined, 'widens', `property "${name}" is no longer required`);
    const oldClosed = oldRules.additionalProperties === false;
    const newClosed = newRules.additionalProperties === false;
    if (oldClosed && !newClosed) scope.change(undefined, 'widens', 'the object now accepts other properties ("additionalProperties" is no longer false)');
    if (!oldClosed && newClosed) scope.change(undefined, 'narrows', 'the object no longer accepts other properties ("additionalProperties": false)');
    const oldProperties = new Map(oldRules.properties.map((p) => [p.name, p.schema]));
    const newProperties = new Map(newRules.properties.map((p) => [p.name, p.schema]));
    for (const [name, schema] of newProperties) {
      const previous = oldProperties.get(name);
      if (previous !== undefined) scope.child(previous, schema);
      // A new property of a closed object is a key it did not allow; of an open one, a rule on a key that held anything.
      else scope.change(schema, oldClosed ? 'widens' : 'narrows', `property "${name}" was added`);
    }
    for (const name of oldProperties.keys()) {
      if (!newProperties.has(name)) scope.change(undefined, newClosed ? 'narrows' : 'widens', `property "${name}" was removed${newClosed ? ', so the closed object refuses it' : ', so it may hold any value'}`);
    }
  },
  children: (node) => objectOf(node)?.properties.map((p) => p.schema) ?? [],
  rewrites: { [additionalProperties.keyword]: emptySchemaAsTrue },
};
