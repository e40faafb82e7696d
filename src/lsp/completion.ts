import type { TypeName } from '../ir/schema-node.js';
import { findMember, type JsonObjectNode } from '../source/json-node.js';
import { typeKeyword } from '../subset/keywords/type.js';
import { colonFollows, placeAt, previousNonSpace } from './cursor.js';
import { describeGroup, describeValue, listedValues, memberOf, membersOf, objectKind, type MemberEntry } from './shape.js';

/** One completion: what is shown, what replaces [start, end) of the document, and what the editor filters on. */
export interface Completion {
  readonly label: string;
  readonly kind: 'keyword' | 'field' | 'value';
  readonly detail: string;
  readonly documentation: string;
  readonly text: string;
  readonly filter: string;
  readonly start: number;
  readonly end: number;
}

/**
 * What may be written at an offset: the contract fields not yet written, in the contract object;
 * in a schema, the keywords not yet written that apply to its declared type (every keyword when it
 * declares none); at a keyword's or field's value, the values it lists (`type`'s names, true/false).
 */
export function completionsAt(text: string, offset: number): Completion[] {
  const place = placeAt(text, offset);
  if (place === undefined) return [];
  const kind = objectKind(place.object.pointer);
  if (kind === undefined) return [];
  const { start, end } = place;
  if (place.kind === 'value') {
    const member = memberOf(kind, place.member.key);
    if (member === undefined) return [];
    return listedValues(member.entry).map((value) => ({ label: value, kind: 'value', detail: place.member.key, documentation: '', text: value, filter: value, start, end }));
  }
  const written = new Set(place.object.members.filter((member) => member !== place.member).map((member) => member.key));
  const after = colonFollows(text, end) ? '' : ': ';
  const before = place.member === undefined && !['{', ',', ''].includes(previousNonSpace(text, start)) ? ', ' : '';
  return membersOf(kind)
    .filter((member) => !written.has(member.name) && (kind === 'contract' || appliesTo(member, place.object)))
    .map((member) => ({
      label: member.name,
      kind: kind === 'schema' ? 'keyword' : 'field',
      detail: `${describeValue(member.entry)}${member.group === undefined ? '' : `, for ${describeGroup(member.group)}`}`,
      documentation: typeof member.entry['description'] === 'string' ? member.entry['description'] : '',
      text: `${before}${JSON.stringify(member.name)}${after}`,
      filter: JSON.stringify(member.name),
      start,
      end,
    }));
}

/** Whether a keyword applies to the schema's declared type; with none declared (or one not yet valid), every keyword does. */
function appliesTo(member: MemberEntry, schema: JsonObjectNode): boolean {
  const declared = findMember(schema, typeKeyword.definition.keyword)?.value;
  const typeNames = memberOf('schema', typeKeyword.definition.keyword)?.entry['enum'] as readonly string[] | undefined;
  if (declared?.kind !== 'string' || !typeNames?.includes(declared.value)) return true;
  return member.group === 'all' || member.group === typeKeyword.groupOf(declared.value as TypeName);
}
