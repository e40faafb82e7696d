import type { JsonMember, JsonNode } from './json-node.js';

/**
 * Exact rewrites of contract text: what `jtc lsp` offers as quick fixes and `jtc import` applies.
 * Offsets are UTF-16 offsets into the text the parser read; `end` is exclusive.
 */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** One rewrite that removes one diagnostic, and what it does in words (a quick fix's title, an import's report). */
export interface Rewrite {
  readonly title: string;
  readonly edits: readonly TextEdit[];
}

const atomPattern = /-?[0-9][0-9.eE+-]*|true|false|null/y;

/**
 * Where the token that starts at `start` ends: a whole string, number, literal, object or array
 * (brackets inside strings and comments do not count), or a comment. Anything else is one character.
 * For a value the parser read, this is exactly its text; for unparsed text it ends at the end.
 */
export function tokenEnd(text: string, start: number): number {
  const c = text[start];
  if (c === '"') return stringEnd(text, start);
  if (c === '/' && (text[start + 1] === '/' || text[start + 1] === '*')) return commentEnd(text, start);
  if (c === '{' || c === '[') return containerEnd(text, start);
  atomPattern.lastIndex = start;
  const atom = atomPattern.exec(text);
  return atom === null ? Math.min(start + 1, text.length) : start + atom[0].length;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i + 1;
    else if (c === '\n') return i;
  }
  return text.length;
}

function commentEnd(text: string, start: number): number {
  if (text[start + 1] === '*') {
    const close = text.indexOf('*/', start + 2);
    return close < 0 ? text.length : close + 2;
  }
  const newline = text.slice(start).search(/[\r\n]/);
  return newline < 0 ? text.length : start + newline;
}

function containerEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; ) {
    const c = text[i];
    if (c === '"' || c === '/') {
      i = c === '/' && text[i + 1] !== '/' && text[i + 1] !== '*' ? i + 1 : tokenEnd(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return text.length;
}

/** The source text of a value the parser read. */
export function sourceOf(text: string, node: JsonNode): string {
  return text.slice(node.position.offset, tokenEnd(text, node.position.offset));
}

/** Replaces a value the parser read with other JSON text. */
export function replaceValue(text: string, node: JsonNode, replacement: string): TextEdit {
  return { start: node.position.offset, end: tokenEnd(text, node.position.offset), text: replacement };
}

const isBlank = (s: string): boolean => /^[ \t]*$/.test(s);

/** The first offset at or after `from` that is not whitespace (the length when there is none). */
export function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
}

/**
 * Removes a member with the comma that joins it to its neighbours: the comma before it, or the one
 * after it when it comes first. Undefined when a comment stands beside it (the edit would no longer
 * be exact).
 */
export function removeMember(text: string, member: JsonMember): TextEdit | undefined {
  const keyStart = member.keyPosition.offset;
  const valueEnd = tokenEnd(text, member.value.position.offset);
  let before = keyStart - 1;
  while (before >= 0 && /\s/.test(text[before]!)) before--;
  const after = skipSpace(text, valueEnd);
  if (text[before] === ',') return { start: before, end: valueEnd, text: '' };
  if (text[before] !== '{') return undefined;
  if (text[after] === ',') {
    const next = skipSpace(text, after + 1);
    return text[next] === '/' ? undefined : { start: keyStart, end: next, text: '' };
  }
  return text[after] === '}' ? { start: before + 1, end: after, text: '' } : undefined;
}

/** A comment removed; one that fills its line takes the line with it. */
export function removeComment(text: string, start: number): TextEdit {
  const end = tokenEnd(text, start);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.slice(end).search(/\n|$/) + end;
  const leading = text.slice(lineStart, start);
  if (isBlank(leading) && /^[ \t\r]*$/.test(text.slice(end, lineEnd))) return { start: lineStart, end: Math.min(lineEnd + 1, text.length), text: '' };
  const spaceBefore = leading.length - leading.trimEnd().length;
  return { start: start - spaceBefore, end, text: '' };
}

/** Applies edits that do not overlap, in any order. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}
