import { editorSchema } from '../contract/editor-schema.js';
import { pointerTokens } from '../source/json-node.js';
import type { RuleGroup } from '../subset/keyword.js';
import { keywordTable } from '../subset/keywords/index.js';

/**
 * What a contract may hold where, read from the editor schema (itself built from the keyword table),
 * so that hover and completion name no keyword: the contract's fields, and at every schema level
 * the subset's keywords with their value's schema and meaning.
 */
type Entry = Readonly<Record<string, unknown>>;

const contract: Entry = editorSchema();
const definitions = contract['definitions'] as Readonly<Record<string, Entry>>;

const resolved = (entry: Entry): Entry => (typeof entry['$ref'] === 'string' ? definitions[entry['$ref'].replace('#/definitions/', '')]! : entry);
const objectOf = (value: unknown): Entry | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Entry) : undefined);

/** The editor schema's entry for the value at a JSON Pointer of a contract, as written (its own description kept). */
export function entryAt(pointer: string): Entry | undefined {
  let entry: Entry | undefined = contract;
  for (const token of pointerTokens(pointer)) {
    if (entry === undefined) return undefined;
    const container = resolved(entry);
    entry = objectOf(objectOf(container['properties'])?.[token]) ?? objectOf(container['additionalProperties']) ?? objectOf(container['items']);
  }
  return entry;
}

/** What the object at a pointer is: the contract itself, a schema of the subset, or plain data (an enum member, a default). */
export function objectKind(pointer: string): 'contract' | 'schema' | undefined {
  const entry = entryAt(pointer);
  if (entry === contract) return 'contract';
  return entry !== undefined && resolved(entry) === definitions['schema'] ? 'schema' : undefined;
}

/** A member the object may have: its name, its value's entry, and which values it applies to (keywords only). */
export interface MemberEntry {
  readonly name: string;
  readonly entry: Entry;
  readonly group: RuleGroup | undefined;
}

/** The members an object of that kind may have, in the table's order. */
export function membersOf(kind: 'contract' | 'schema'): MemberEntry[] {
  const properties = objectOf(resolved(kind === 'contract' ? contract : definitions['schema']!)['properties']) ?? {};
  return Object.entries(properties).map(([name, entry]) => ({ name, entry: entry as Entry, group: kind === 'schema' ? keywordTable.get(name)?.group : undefined }));
}

export function memberOf(kind: 'contract' | 'schema', name: string): MemberEntry | undefined {
  return membersOf(kind).find((member) => member.name === name);
}

/** The values an entry lists (an enum, or true and false), as JSON text. */
export function listedValues(entry: Entry): string[] {
  if (Array.isArray(entry['enum'])) return entry['enum'].map((value) => JSON.stringify(value));
  return entry['type'] === 'boolean' ? ['true', 'false'] : [];
}

const article = (noun: string): string => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** A value's type in words, from its entry: `a non-negative integer`, `one of "null", "boolean", …`. */
export function describeValue(entry: Entry): string {
  if (entry['$ref'] !== undefined) return 'a schema';
  if (Array.isArray(entry['enum'])) return `one of ${listedValues(entry).join(', ')}`;
  const type = entry['type'];
  if (typeof type !== 'string') return 'any JSON value';
  const items = objectOf(entry['items']);
  if (type === 'array' && items !== undefined) return `an array of ${entry['uniqueItems'] === true ? 'unique ' : ''}${describeValue(items).replace(/^an? /, '')}s`;
  if (type === 'object' && objectOf(entry['additionalProperties'])?.['$ref'] !== undefined) return 'an object of schemas, by property name';
  if (type === 'integer' && entry['minimum'] === 0) return 'a non-negative integer';
  return article(type);
}

/** Which values a keyword applies to, in words. */
export function describeGroup(group: RuleGroup): string {
  return group === 'all' ? 'any value' : `${group === 'number' ? 'number and integer' : group} values`;
}
