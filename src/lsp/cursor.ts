import { skipSpace, tokenEnd } from '../source/edits.js';
import type { JsonMember, JsonObjectNode } from '../source/json-node.js';
import { parseSourceText } from '../source/parse.js';

/**
 * What the cursor stands on in a contract, for hover and completion: a member's key (or the place
 * between members where a key would go), or a member's scalar value. `start`/`end` are the
 * token's offsets in the document (equal where nothing is written yet).
 */
export type CursorPlace = { readonly kind: 'key'; readonly object: JsonObjectNode; readonly member: JsonMember | undefined; readonly start: number; readonly end: number } | { readonly kind: 'value'; readonly object: JsonObjectNode; readonly member: JsonMember; readonly start: number; readonly end: number };

/** Text inserted at one offset so that a half-typed document parses. */
interface Repair {
  readonly text: string;
  readonly at: number;
  readonly length: number;
}

/**
 * The place at an offset. A document being typed often does not parse (a key without its value,
 * a colon without a value): then the smallest insertion after the cursor that completes the member
 * is tried, and offsets are mapped back to the document.
 */
export function placeAt(text: string, offset: number): CursorPlace | undefined {
  for (const repair of [{ text, at: offset, length: 0 }, ...repairsAt(text, offset)]) {
    const root = parseSourceText(repair.text).root;
    if (root === undefined) continue;
    if (root.kind !== 'object' || offset <= root.position.offset || offset >= tokenEnd(repair.text, root.position.offset)) return undefined;
    const place = placeIn(repair.text, root, offset);
    const real = (at: number): number => (at <= repair.at ? at : Math.max(repair.at, at - repair.length));
    return place === undefined ? undefined : { ...place, start: real(place.start), end: real(place.end) };
  }
  return undefined;
}

function placeIn(text: string, object: JsonObjectNode, offset: number): CursorPlace | undefined {
  for (const member of object.members) {
    const keyStart = member.keyPosition.offset;
    const keyEnd = tokenEnd(text, keyStart);
    if (offset >= keyStart && offset < keyEnd) return { kind: 'key', object, member, start: keyStart, end: keyEnd };
    const value = member.value;
    const valueStart = value.position.offset;
    const valueEnd = tokenEnd(text, valueStart);
    if (offset < valueStart || offset > valueEnd) continue;
    if (value.kind === 'object') return offset > valueStart && offset < valueEnd ? placeIn(text, value, offset) : undefined;
    if (value.kind === 'array') {
      const item = value.items.find((node) => node.kind === 'object' && offset > node.position.offset && offset < tokenEnd(text, node.position.offset));
      return item?.kind === 'object' ? placeIn(text, item, offset) : undefined;
    }
    return { kind: 'value', object, member, start: valueStart, end: valueEnd };
  }
  return { kind: 'key', object, member: undefined, start: offset, end: offset };
}

function repairsAt(text: string, offset: number): Repair[] {
  const insert = (at: number, inserted: string): Repair => ({ text: text.slice(0, at) + inserted + text.slice(at), at, length: inserted.length });
  const key = stringAround(text, offset);
  if (key !== undefined) {
    // An unclosed string runs to the end of its line; it is closed at the cursor.
    const closed = key.end > key.start + 1 && text[key.end - 1] === '"';
    if (!closed) return [insert(offset, '": null')];
    return text[skipSpace(text, key.end)] === ':' ? [] : [insert(key.end, ': null')];
  }
  return previousNonSpace(text, offset) === ':' ? [insert(offset, 'null')] : [];
}

/** The string token the offset is inside (after its opening quote), found by reading tokens from the start. */
function stringAround(text: string, offset: number): { readonly start: number; readonly end: number } | undefined {
  for (let at = 0; at < offset; ) {
    const c = text[at];
    const comment = c === '/' && (text[at + 1] === '/' || text[at + 1] === '*');
    if (c !== '"' && !comment) {
      at++;
      continue;
    }
    const end = tokenEnd(text, at);
    if (c === '"' && offset > at && offset <= end) return { start: at, end };
    at = end;
  }
  return undefined;
}

/** The last character before the offset that is not whitespace, or '' at the start. */
export function previousNonSpace(text: string, offset: number): string {
  let at = offset - 1;
  while (at >= 0 && /\s/.test(text[at]!)) at--;
  return at < 0 ? '' : text[at]!;
}

/** Whether a colon follows the offset (after whitespace). */
export function colonFollows(text: string, offset: number): boolean {
  return text[skipSpace(text, offset)] === ':';
}
