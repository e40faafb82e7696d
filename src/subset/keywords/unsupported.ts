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
