import { Code, code } from '../../codegen/code.js';
import type { TypeName } from '../../ir/schema-node.js';
import type { JsonNode } from '../../source/json-node.js';
import { invalidValue, reportAt, type EmittedCheck, type KeywordDefinition } from '../keyword.js';

const typeNames: readonly TypeName[] = ['null', 'boolean', 'number', 'integer', 'string', 'array', 'object'];

export const type: KeywordDefinition<TypeName> = {
  keyword: 'type',
  group: 'all',
  read(node, context) {
    if (node.kind === 'array') {
      return reportAt(context, 'JTC110', node, `"type" lists several types (${node.items.map((item) => (item.kind === 'string' ? item.value : item.kind)).join(', ')}); the subset takes exactly one`, 'use one type; for an optional value leave the property out of "required" instead of allowing null');
    }
    if (node.kind === 'string' && (typeNames as readonly string[]).includes(node.value)) return node.value as TypeName;
    const found = node.kind === 'string' ? JSON.stringify(node.value) : node.kind;
    return invalidValue(context, node, `"type" must be one of ${typeNames.join(', ')}; found ${found}`);
  },
};

/** The JSON type of a source value, as JSON Schema 2020-12 sees it (`1.0` is an integer). */
export function sourceTypeMatches(typeName: TypeName, node: JsonNode, isInteger: (lexeme: string) => boolean): boolean {
  switch (typeName) {
    case 'integer':
      return node.kind === 'number' && isInteger(node.lexeme);
    case 'number':
      return node.kind === 'number';
    default:
      return node.kind === typeName;
  }
}

/**
 * The failure condition for a declared type: JSON values only, so NaN, Infinity and class instances
 * fail. In exact mode a number may also be a bigint or a JsonNumber.
 */
export function emitTypeCheck(typeName: TypeName, value: Code, exact: boolean): EmittedCheck {
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
}
