import { Code, code } from '../../codegen/code.js';
import type { SchemaNode, TypeName } from '../../ir/schema-node.js';
import type { JsonNode } from '../../source/json-node.js';
import { replaceValue, sourceOf } from '../../source/edits.js';
import { invalidValue, reportAt, type KeywordDefinition, type KeywordFamily, type KeywordRewriter, type RuleGroupName, type Effect } from '../keyword.js';
import type { EmittedCheck } from '../emission.js';

const typeNames: readonly TypeName[] = ['null', 'boolean', 'number', 'integer', 'string', 'array', 'object'];

const type: KeywordDefinition<TypeName> = {
  keyword: 'type',
  group: 'all',
  read(node, context) {
    if (node.kind === 'array') {
      const listed = node.items.map((item) => (item.kind === 'string' ? item.value : item.kind));
      const only = node.items.length === 1 && node.items[0]!.kind === 'string' && (typeNames as readonly string[]).includes(node.items[0]!.value) ? node.items[0]!.value : undefined;
      if (only !== undefined) return reportAt(context, 'JTC110', node, `"type" is an array of one type (${only}); the subset takes the type itself, as a string`, `write "type": ${JSON.stringify(only)}`);
      if (listed.length === 1) return reportAt(context, 'JTC110', node, `"type" is an array of one value (${listed[0]}), which is not a type`, `write one of ${typeNames.join(', ')} as a string`);
      if (listed.length === 0) return reportAt(context, 'JTC110', node, '"type" is an empty array; the subset takes exactly one type', `write one of ${typeNames.join(', ')} as a string`);
      // The usual type array is a nullable one: its way out is an optional property. Others have none as simple.
      const hint = listed.includes('null') ? 'use one type; for an optional value leave the property out of "required" instead of allowing null' : `use one type (${listed.join(' or ')}): a value of several types has no schema in the subset; pick the one callers should send, or give each its own property`;
      return reportAt(context, 'JTC110', node, `"type" lists several types (${listed.join(', ')}); the subset takes exactly one`, hint);
    }
    if (node.kind === 'string' && (typeNames as readonly string[]).includes(node.value)) return node.value as TypeName;
    const found = node.kind === 'string' ? JSON.stringify(node.value) : node.kind;
    return invalidValue(context, node, `"type" must be one of ${typeNames.join(', ')}; found ${found}`);
  },
  editor: { enum: typeNames, description: 'The one JSON type of the value; absent: any JSON value. 1.0 and 1e2 are integers.' },
};

const groupOfType: Readonly<Record<TypeName, RuleGroupName | undefined>> = {
  null: undefined,
  boolean: undefined,
  number: 'number',
  integer: 'number',
  string: 'string',
  array: 'array',
  object: 'object',
};

/** What a type change does: `any` and `number` → `integer` narrow, the reverse widens, anything else is another type. */
function kindChange(before: SchemaNode['kind'], after: SchemaNode['kind']): Effect {
  if (before === 'any' || (before === 'number' && after === 'integer')) return 'narrows';
  if (after === 'any' || (before === 'integer' && after === 'number')) return 'widens';
  return 'both';
}

const kindText = (kind: SchemaNode['kind']): string => (kind === 'any' ? 'any' : `"${kind}"`);

/** A type array of one type is that type. */
const singleTypeArray: KeywordRewriter = ({ text, member }) => {
  const types = member.value;
  if (types.kind !== 'array' || types.items.length !== 1 || types.items[0]!.kind !== 'string') return undefined;
  const only = sourceOf(text, types.items[0]!);
  return { title: `replace the one-element type array with ${only}`, edits: [replaceValue(text, types, only)], pointer: types.pointer };
};

type ScalarType = 'null' | 'boolean' | 'number' | 'integer' | 'string';

interface TypeFamily extends KeywordFamily {
  readonly definition: KeywordDefinition<TypeName>;
  groupOf(typeName: TypeName): RuleGroupName | undefined;
  matches(typeName: TypeName, node: JsonNode, isInteger: (lexeme: string) => boolean): boolean;
  emit(typeName: TypeName, value: Code, exact: boolean): EmittedCheck;
  scalarType(typeName: ScalarType, exact: boolean): readonly Code[];
}

/** `type`: exactly one JSON type; absent, any JSON value (and a schema's rules of every type apply, each to its own). */
export const typeKeyword: TypeFamily = {
  keywords: [type],
  definition: type,
  /** The group of rules a declared type takes; the others are inert on it (JTC201). */
  groupOf: (typeName) => groupOfType[typeName],

  /** The JSON type of a source value, as JSON Schema 2020-12 sees it (`1.0` is an integer). */
  matches(typeName, node, isInteger) {
    switch (typeName) {
      case 'integer':
        return node.kind === 'number' && isInteger(node.lexeme);
      case 'number':
        return node.kind === 'number';
      default:
        return node.kind === typeName;
    }
  },

  /**
   * The failure condition for a declared type: JSON values only, so NaN, Infinity and class instances
   * fail. In exact mode a number may also be a bigint or a JsonNumber.
   */
  emit(typeName, value, exact) {
    const fails = {
      null: code`${value} !== null`,
      boolean: code`typeof ${value} !== "boolean"`,
      number: exact ? code`!${Code.helper('isNumeric')}(${value})` : code`typeof ${value} !== "number" || !Number.isFinite(${value})`,
      integer: exact ? code`!(typeof ${value} === "number" ? Number.isInteger(${value}) : typeof ${value} === "bigint" || (${Code.helper('isJsonNumber')}(${value}) && ${Code.helper('decimalOf')}(${value})[2] >= 0))` : code`typeof ${value} !== "number" || !Number.isInteger(${value})`,
      string: code`typeof ${value} !== "string"`,
      array: code`!Array.isArray(${value})`,
      object: code`!${Code.helper('isPlainObject')}(${value})`,
    }[typeName];
    return {
      fails,
      message: code`${`must be ${typeName === 'integer' ? 'an integer' : typeName === 'array' || typeName === 'object' ? `an ${typeName}` : typeName}, got `} + ${Code.helper('describeType')}(${value})`,
      params: code`{ type: ${typeName} }`,
    };
  },

  /** The TypeScript type of a scalar type. Exact mode tells the truth: an integer may arrive as a bigint, any number as a JsonNumber. */
  scalarType(typeName, exact) {
    switch (typeName) {
      case 'number':
        return [exact ? code`NumericValue` : code`number`];
      case 'integer':
        return exact ? [code`number`, code`bigint`] : [code`number`];
      default:
        return [Code.raw(typeName)];
    }
  },

  toJson(node, write) {
    if (node.kind !== 'any') write(type.keyword, { kind: 'string', position: node.position, pointer: node.pointer, value: node.kind });
  },
  shapeKey: (node) => node.kind,
  docLines: (node) => (node.kind === 'integer' ? ['@integer'] : []),
  rewrites: { [type.keyword]: singleTypeArray },
  compare(before, after, scope) {
    if (before.kind === after.kind) return;
    const effect = kindChange(before.kind, after.kind);
    scope.change(undefined, effect, `"type" went from ${kindText(before.kind)} to ${kindText(after.kind)}`);
    return effect === 'both' ? 'unrelated' : undefined;
  },
};
