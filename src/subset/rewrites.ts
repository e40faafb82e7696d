import type { DiagnosticCode } from '../diagnostics/codes.js';
import { removeComment, removeMember, replaceValue, sourceOf, type Rewrite } from '../source/edits.js';
import { memberAt, nodeAt, type JsonNode } from '../source/json-node.js';
import { exactReplacements } from './keywords/unsupported.js';

export type { Rewrite, TextEdit } from '../source/edits.js';

/** Where a diagnostic stands: its code, its JSON Pointer, and its offset in the text. */
export interface RewriteSite {
  readonly code: DiagnosticCode;
  readonly pointer: string;
  readonly offset: number;
}

/**
 * The exact rewrite that removes one diagnostic of a contract's text, or undefined when there is
 * none: the rewritten contract means what the author wrote, with nothing guessed. A comment or a
 * trailing comma removed; an unsupported keyword with an exact equivalent replaced (the keyword
 * table's `exactReplacements`: `const`, an exclusive bound on an integer); a one-element type
 * array replaced by its type; a keyword on the wrong type removed. `root` is the parsed text
 * (undefined when it does not parse: only the syntax rewrites apply then). Renaming a tool whose
 * name collides needs the whole set: `freeToolName` in `contract/names.ts`.
 */
export function exactRewrite(text: string, root: JsonNode | undefined, site: RewriteSite): Rewrite | undefined {
  switch (site.code) {
    case 'JTC101':
      return text[site.offset] === '/' ? { title: 'remove the comment', edits: [removeComment(text, site.offset)] } : undefined;
    case 'JTC102':
      return text[site.offset] === ',' ? { title: 'remove the trailing comma', edits: [{ start: site.offset, end: site.offset + 1, text: '' }] } : undefined;
    case 'JTC104': {
      const found = root === undefined ? undefined : memberAt(root, site.pointer);
      if (found === undefined) return undefined;
      return exactReplacements[found.member.key]?.(text, found.object, found.member);
    }
    case 'JTC110': {
      const types = root === undefined ? undefined : nodeAt(root, site.pointer);
      if (types?.kind !== 'array' || types.items.length !== 1 || types.items[0]!.kind !== 'string') return undefined;
      const only = sourceOf(text, types.items[0]!);
      return { title: `replace the one-element type array with ${only}`, edits: [replaceValue(text, types, only)] };
    }
    case 'JTC201': {
      const member = root === undefined ? undefined : memberAt(root, site.pointer)?.member;
      const edit = member === undefined ? undefined : removeMember(text, member);
      return member === undefined || edit === undefined ? undefined : { title: `remove ${JSON.stringify(member.key)}, which has no effect on this type`, edits: [edit] };
    }
    default:
      return undefined;
  }
}
