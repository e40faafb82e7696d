import { replaceValue, sourceOf, tokenEnd, type Rewrite, type TextEdit } from '../../source/edits.js';
import { findMember, type JsonMember, type JsonObjectNode } from '../../source/json-node.js';
import { enumValues } from './enum.js';
import { numberBoundKeywords } from './number-bounds.js';
import { typeKeyword } from './type.js';

/**
 * Keywords outside the subset, with what to do instead. Any keyword not in the table of
 * supported ones is rejected; these get advice because people reach for them most.
 */
const composition = 'composition is outside the subset; describe one shape, or split the tool into several';
const reference = 'references are outside the subset; write the schema inline';
const handlerCheck = (what: string): string => `check ${what} in the handler`;

export const unsupportedAdvice: Readonly<Record<string, string>> = {
  $ref: reference,
  $defs: reference,
  definitions: reference,
  $anchor: reference,
  $dynamicRef: reference,
  $dynamicAnchor: reference,
  $recursiveRef: reference,
  $vocabulary: 'custom vocabularies are outside the subset; drop it',
  $comment: 'put the note in "description"',
  allOf: composition,
  anyOf: composition,
  oneOf: composition,
  not: composition,
  if: `conditional schemas are outside the subset; split the tool or ${handlerCheck('the condition')}`,
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
  then: `conditional schemas are outside the subset; split the tool or ${handlerCheck('the condition')}`,
  else: `conditional schemas are outside the subset; split the tool or ${handlerCheck('the condition')}`,
  pattern: 'regular expressions are outside the contract subset; validate the format in the handler',
  format: `formats are not enforced by the subset; say the format in "description" and ${handlerCheck('it')}`,
  const: 'use "enum" with a single value',
  exclusiveMinimum: 'use "minimum" (inclusive); for integers, the next integer up',
  exclusiveMaximum: 'use "maximum" (inclusive); for integers, the next integer down',
  multipleOf: handlerCheck('divisibility'),
  uniqueItems: handlerCheck('uniqueness'),
  contains: handlerCheck('what the array must contain'),
  minContains: handlerCheck('what the array must contain'),
  maxContains: handlerCheck('what the array must contain'),
  prefixItems: 'tuples are outside the subset; use an object with named properties',
  additionalItems: 'tuples are outside the subset; use an object with named properties',
  unevaluatedItems: 'use "items"',
  unevaluatedProperties: 'use "additionalProperties": false',
  patternProperties: 'list the keys in "properties", or use an array of {key, value} objects',
  propertyNames: 'list the keys in "properties" with "additionalProperties": false',
  minProperties: `${handlerCheck('how many properties there are')}, or make the needed ones "required"`,
  maxProperties: 'list the allowed keys with "additionalProperties": false',
  dependentRequired: handlerCheck('dependencies between properties'),
  dependentSchemas: handlerCheck('dependencies between properties'),
  dependencies: handlerCheck('dependencies between properties'),
  contentEncoding: handlerCheck('the encoding'),
  contentMediaType: handlerCheck('the media type'),
  contentSchema: handlerCheck('the content'),
  nullable: 'OpenAPI\'s "nullable" is not JSON Schema; leave the property out of "required" instead',
  deprecated: 'say it in "description"',
  readOnly: 'say it in "description"',
  writeOnly: 'say it in "description"',
};

/**
 * Unsupported keywords with an exact equivalent in the subset: the rewrite that replaces one where
 * it stands in `schema`, or undefined when the schema's other keywords leave no exact one (the
 * equivalent keyword is already there, the type is not `integer`).
 */
type Replacement = (text: string, schema: JsonObjectNode, member: JsonMember) => Rewrite | undefined;

const renameKey = (text: string, member: JsonMember, keyword: string): TextEdit => ({ start: member.keyPosition.offset, end: tokenEnd(text, member.keyPosition.offset), text: JSON.stringify(keyword) });

const oneMemberEnum: Replacement = (text, schema, member) => {
  const keyword = enumValues.definition.keyword;
  if (findMember(schema, keyword) !== undefined) return undefined;
  return { title: `replace ${JSON.stringify(member.key)} with a one-member ${JSON.stringify(keyword)}`, edits: [renameKey(text, member, keyword), replaceValue(text, member.value, `[${sourceOf(text, member.value)}]`)] };
};

/** An exclusive bound on an integer is the inclusive bound on the next integer inside it. */
const inclusiveIntegerBound =
  (side: 'lower' | 'upper'): Replacement =>
  (text, schema, member) => {
    const keyword = numberBoundKeywords.find((bound) => bound.side === side)!.definition.keyword;
    const declared = findMember(schema, typeKeyword.definition.keyword)?.value;
    if (declared?.kind !== 'string' || declared.value !== 'integer' || member.value.kind !== 'number' || findMember(schema, keyword) !== undefined) return undefined;
    const whole = wholePartsOf(member.value.lexeme);
    if (whole === undefined) return undefined;
    const limit = side === 'lower' ? whole.floor + 1n : whole.ceiling - 1n;
    return { title: `replace ${JSON.stringify(member.key)} ${member.value.lexeme} with ${JSON.stringify(keyword)} ${limit} (the schema takes integers only)`, edits: [renameKey(text, member, keyword), replaceValue(text, member.value, String(limit))] };
  };

/** Exponents beyond this give integers too long to be worth writing out; no rewrite is offered. */
const maxWrittenExponent = 1000;

/** The integers just at or below and at or above a JSON number, exactly. */
function wholePartsOf(lexeme: string): { readonly floor: bigint; readonly ceiling: bigint } | undefined {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(lexeme);
  if (match === null) return undefined;
  const [, sign, integer, fraction = '', exponentText = '0'] = match;
  const digits = integer! + fraction;
  const exponent = Number(exponentText) - fraction.length;
  if (exponent > maxWrittenExponent) return undefined;
  const negative = sign === '-';
  if (exponent >= 0) {
    const value = BigInt(digits) * 10n ** BigInt(exponent);
    return { floor: negative ? -value : value, ceiling: negative ? -value : value };
  }
  const cut = Math.max(0, digits.length + exponent);
  const truncated = BigInt(digits.slice(0, cut) || '0');
  const inexact = /[1-9]/.test(digits.slice(cut)) ? 1n : 0n;
  return negative ? { floor: -truncated - inexact, ceiling: -truncated } : { floor: truncated, ceiling: truncated + inexact };
}

export const exactReplacements: Readonly<Record<string, Replacement>> = {
  const: oneMemberEnum,
  exclusiveMinimum: inclusiveIntegerBound('lower'),
  exclusiveMaximum: inclusiveIntegerBound('upper'),
};
