import { appendPointer } from '../../diagnostics/diagnostic.js';
import { compactJsonBytes } from '../../ir/canonical.js';
import { compareDecimals, parseDecimal } from '@json-tool-contracts/runtime/internal';
import { removeMember, replaceValue, sourceOf } from '../../source/edits.js';
import { findMember, nodeAt, type JsonMember, type JsonNode } from '../../source/json-node.js';
import { memberSource, renameKey, type KeywordRewriter } from '../keyword.js';
import { limits } from '../limits.js';
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

/*
 * Exact rewrites: unsupported keywords that say something the subset can say exactly, each with
 * the rewrite that says it, or nothing when the schema around it leaves no exact one. `jtc import`
 * applies them, `jtc lsp` offers them as quick fixes; both reach them through `keywordRewrites`.
 */

const constKeyword = 'const';
const enumKeyword = enumValues.definition.keyword;
const typeName = typeKeyword.definition.keyword;
const descriptionKeyword = 'description';

/** `const` is an `enum` of one member (not when the schema has an `enum` already: both would have to hold). */
const oneMemberEnum: KeywordRewriter = ({ text, schema, member }) => {
  if (findMember(schema, enumKeyword) !== undefined) return undefined;
  return { title: `replace "${member.key}" with a one-member "${enumKeyword}"`, edits: [renameKey(text, member, enumKeyword), replaceValue(text, member.value, `[${sourceOf(text, member.value)}]`)], pointer: siblingPointer(member, enumKeyword) };
};

/** The pointer of the schema holding a member. */
const holderPointer = (member: JsonMember): string => member.value.pointer.slice(0, member.value.pointer.lastIndexOf('/'));
const siblingPointer = (member: JsonMember, key: string): string => appendPointer(holderPointer(member), key);

/** Whole numbers past this exponent are too long to write out; no rewrite is offered. */
const maxWrittenExponent = 1000n;

/** The greatest integer at or below a decimal, and the least at or above it. */
function wholeNeighbours(lexeme: string): { readonly floor: bigint; readonly ceiling: bigint } | undefined {
  const decimal = parseDecimal(lexeme);
  if (decimal === undefined || decimal.exponent > maxWrittenExponent) return undefined;
  const { negative, digits, exponent } = decimal;
  const sign = (value: bigint): bigint => (negative ? -value : value);
  if (exponent >= 0n) {
    const whole = sign(BigInt(digits || '0') * 10n ** exponent);
    return { floor: whole, ceiling: whole };
  }
  const cut = Math.max(0, digits.length + Number(exponent));
  const truncated = sign(BigInt(digits.slice(0, cut) || '0'));
  // digits has no trailing zeros, so a negative exponent always leaves a fraction.
  return negative ? { floor: truncated - 1n, ceiling: truncated } : { floor: truncated, ceiling: truncated + 1n };
}

/**
 * On `"type": "integer"`, an exclusive bound is the inclusive bound on the next integer inside it
 * (`exclusiveMinimum` 0 is `minimum` 1, 2.5 is 3); beside an inclusive bound of the same side, the
 * tighter of the two.
 */
const inclusiveIntegerBound =
  (side: 'lower' | 'upper'): KeywordRewriter =>
  ({ text, schema, member }) => {
    const bound = numberBoundKeywords.find((entry) => entry.side === side)!.definition.keyword;
    const declared = findMember(schema, typeName)?.value;
    if (declared?.kind !== 'string' || declared.value !== 'integer' || member.value.kind !== 'number') return undefined;
    const whole = wholeNeighbours(member.value.lexeme);
    if (whole === undefined) return undefined;
    const limit = side === 'lower' ? whole.floor + 1n : whole.ceiling - 1n;
    const reason = '(the schema takes integers only)';
    const inclusive = findMember(schema, bound);
    if (inclusive === undefined) {
      return { title: `replace "${member.key}" ${member.value.lexeme} with "${bound}" ${limit} ${reason}`, edits: [renameKey(text, member, bound), replaceValue(text, member.value, String(limit))], pointer: siblingPointer(member, bound) };
    }
    if (inclusive.value.kind !== 'number') return undefined;
    const present = parseDecimal(inclusive.value.lexeme)!;
    const order = compareDecimals(parseDecimal(String(limit))!, present);
    const tighter = (side === 'lower' ? order > 0 : order < 0) ? String(limit) : undefined;
    const removal = removeMember(text, member);
    if (removal === undefined) return undefined;
    return {
      title: tighter === undefined ? `remove "${member.key}" ${member.value.lexeme}: "${bound}" ${inclusive.value.lexeme} is tighter ${reason}` : `replace "${member.key}" ${member.value.lexeme} and "${bound}" ${inclusive.value.lexeme} with "${bound}" ${limit} ${reason}`,
      edits: tighter === undefined ? [removal] : [removal, replaceValue(text, inclusive.value, tighter)],
      pointer: inclusive.value.pointer,
    };
  };

/**
 * Annotations that JSON Schema 2020-12 does not assert: what they say is kept as words in
 * `description` (appended in parentheses), and nothing about validation changes. A flag that is
 * false says nothing and is removed.
 */
const annotationWords: Readonly<Record<string, (value: JsonNode) => string | false | undefined>> = {
  format: (value) => (value.kind === 'string' ? `format: ${value.value}` : undefined),
  $comment: (value) => (value.kind === 'string' ? `note: ${value.value}` : undefined),
  readOnly: (value) => (value.kind === 'boolean' ? value.value && 'read-only' : undefined),
  writeOnly: (value) => (value.kind === 'boolean' ? value.value && 'write-only' : undefined),
  deprecated: (value) => (value.kind === 'boolean' ? value.value && 'deprecated' : undefined),
  contentMediaType: (value) => (value.kind === 'string' ? `media type: ${value.value}` : undefined),
  contentEncoding: (value) => (value.kind === 'string' ? `encoding: ${value.value}` : undefined),
};

const intoDescription =
  (wordsOf: (value: JsonNode) => string | false | undefined): KeywordRewriter =>
  ({ text, schema, member }) => {
    const words = wordsOf(member.value);
    if (words === undefined) return undefined;
    const said = `${JSON.stringify(member.key)} ${sourceOf(text, member.value)}`;
    if (words === false) {
      const removal = removeMember(text, member);
      return removal === undefined ? undefined : { title: `remove ${said}, which says nothing`, edits: [removal], pointer: schema.pointer };
    }
    const description = findMember(schema, descriptionKeyword);
    const pointer = siblingPointer(member, descriptionKeyword);
    const title = `move ${said} into "${descriptionKeyword}" as "${words}" (it is not enforced)`;
    if (description === undefined) return { title, edits: [renameKey(text, member, descriptionKeyword), replaceValue(text, member.value, JSON.stringify(words))], pointer };
    if (description.value.kind !== 'string') return undefined;
    const removal = removeMember(text, member);
    if (removal === undefined) return undefined;
    const existing = description.value.value;
    return { title, edits: [removal, replaceValue(text, description.value, JSON.stringify(existing.trim() === '' ? words : `${existing} (${words})`))], pointer };
  };

/** The keywords that hold definitions for local references; only references into them are inlined. */
const definitionKeywords: readonly string[] = ['$defs', 'definitions'];
const referenceKeyword = '$ref';

/** A local reference's JSON Pointer within its root schema (`#/$defs/a%20b` → `/$defs/a b`), or undefined for any other reference. */
function localTarget(reference: JsonNode): string | undefined {
  if (reference.kind !== 'string' || !reference.value.startsWith('#/')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(reference.value.slice(1));
  } catch {
    return undefined;
  }
  const first = pointer.slice(1).split('/')[0]!;
  return definitionKeywords.includes(first) ? pointer : undefined;
}

/** Every `$ref` member in a schema tree, with the schema holding it. */
function* referencesIn(node: JsonNode): Generator<JsonMember> {
  if (node.kind === 'array') for (const item of node.items) yield* referencesIn(item);
  if (node.kind !== 'object') return;
  for (const member of node.members) {
    if (member.key === referenceKeyword) yield member;
    else yield* referencesIn(member.value);
  }
}

/** A pointer relative to the root schema. */
const relativeTo = (root: JsonNode, node: JsonNode): string => node.pointer.slice(root.pointer.length);

/**
 * Whether inlining the definition at `target` ends: no chain of references from inside it (at any
 * depth) comes back to a definition on the chain. Chains longer than `maxReferenceChain` are
 * refused rather than followed; each definition is explored once.
 */
const maxReferenceChain = 64;
function expandsFinitely(root: JsonNode, target: string): boolean {
  const finished = new Set<string>();
  const onChain = new Set<string>();
  const visit = (pointer: string): boolean => {
    if (finished.has(pointer)) return true;
    if (onChain.has(pointer) || onChain.size >= maxReferenceChain) return false;
    const node = nodeAt(root, pointer);
    if (node === undefined) return false;
    onChain.add(pointer);
    for (const reference of referencesIn(node)) {
      const next = localTarget(reference.value);
      // Another kind of reference is refused where it stands.
      if (next !== undefined && !visit(next)) return false;
    }
    onChain.delete(pointer);
    finished.add(pointer);
    return true;
  };
  return visit(target);
}

/** Inlining stops well past the size limit: what grows past it is refused by the checker, never expanded without end. */
const maxInlinedBytes = 4 * limits.schemaBytes;

/**
 * A local, non-recursive `$ref` (`#/$defs/…`, `#/definitions/…`) is the schema it names: its
 * keywords are written in place of the reference, beside the reference's own (a keyword on both
 * sides would have to hold twice, and is refused). The definitions stay until nothing refers to them.
 */
const inlineReference: KeywordRewriter = ({ text, schema, member, root }) => {
  const target = localTarget(member.value);
  if (target === undefined) return undefined;
  const definition = nodeAt(root, target);
  if (definition?.kind !== 'object' || !expandsFinitely(root, target)) return undefined;
  if (compactJsonBytes(root) + compactJsonBytes(definition) > maxInlinedBytes) return undefined;
  const siblings = schema.members.filter((other) => other !== member);
  if (definition.members.some((inner) => siblings.some((other) => other.key === inner.key))) return undefined;
  const members = [...siblings, ...definition.members].map((m) => memberSource(text, m));
  return { title: `inline ${sourceOf(text, member.value)}, which is not recursive`, edits: [replaceValue(text, schema, `{${members.join(', ')}}`)], pointer: schema.pointer };
};

/** Definitions nothing refers to any more say nothing about a value: removed. */
const dropUnreferenced: KeywordRewriter = ({ text, member, root }) => {
  const at = relativeTo(root, member.value);
  const referenced = [...referencesIn(root)].some((reference) => {
    if (relativeTo(root, reference.value).startsWith(`${at}/`)) return false;
    if (reference.value.kind !== 'string') return true;
    const pointer = safeDecode(reference.value.value.slice(1));
    return reference.value.value.startsWith('#') && (pointer === at || pointer.startsWith(`${at}/`) || at.startsWith(`${pointer}/`));
  });
  const removal = referenced ? undefined : removeMember(text, member);
  return removal === undefined ? undefined : { title: `remove "${member.key}": nothing refers to it any more`, edits: [removal], pointer: holderPointer(member) };
};

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

export const unsupportedRewrites: Readonly<Record<string, KeywordRewriter>> = {
  [constKeyword]: oneMemberEnum,
  exclusiveMinimum: inclusiveIntegerBound('lower'),
  exclusiveMaximum: inclusiveIntegerBound('upper'),
  [referenceKeyword]: inlineReference,
  ...Object.fromEntries(definitionKeywords.map((keyword) => [keyword, dropUnreferenced])),
  ...Object.fromEntries(Object.entries(annotationWords).map(([keyword, words]) => [keyword, intoDescription(words)])),
};
