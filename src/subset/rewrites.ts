import type { DiagnosticCode } from '../diagnostics/codes.js';
import { removeComment, removeMember, type Rewrite } from '../source/edits.js';
import { memberAt, nodeAt, type JsonNode } from '../source/json-node.js';
import type { KeywordRewrite } from './keyword.js';
import { keywordRewrites } from './keywords/index.js';

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
 * trailing comma removed; a keyword the subset does not take (JTC104), or a value it does not take
 * (JTC108, JTC110), replaced by its exact equivalent from the keyword table (`keywordRewrites`:
 * `const`, an exclusive bound on an integer, a local `$ref`, `format`, a one-element type array,
 * …), which then also says where the result stands (`pointer`); a keyword on the wrong type
 * removed. `root` is the parsed text (undefined when it does not parse: only the syntax rewrites
 * apply then). Renaming a tool whose name collides needs the whole set: `freeToolName` in
 * `contract/names.ts`.
 */
export function exactRewrite(text: string, root: JsonNode | undefined, site: RewriteSite): Rewrite | KeywordRewrite | undefined {
  switch (site.code) {
    case 'JTC101':
      return text[site.offset] === '/' ? { title: 'remove the comment', edits: [removeComment(text, site.offset)] } : undefined;
    case 'JTC102':
      return text[site.offset] === ',' ? { title: 'remove the trailing comma', edits: [{ start: site.offset, end: site.offset + 1, text: '' }] } : undefined;
    case 'JTC104':
    case 'JTC108':
    case 'JTC110':
      return root === undefined ? undefined : keywordRewrite(text, root, site.pointer);
    case 'JTC201': {
      const member = root === undefined ? undefined : memberAt(root, site.pointer)?.member;
      const edit = member === undefined ? undefined : removeMember(text, member);
      return member === undefined || edit === undefined ? undefined : { title: `remove ${JSON.stringify(member.key)}, which has no effect on this type`, edits: [edit] };
    }
    default:
      return undefined;
  }
}

/**
 * The table's rewrite of the member a pointer names. Local references resolve against the root
 * schema holding it: the document's top-level member the pointer starts in (a contract's `input`
 * or `output`).
 */
function keywordRewrite(text: string, document: JsonNode, pointer: string): KeywordRewrite | undefined {
  const site = memberAt(document, pointer);
  const schemaRoot = nodeAt(document, pointer.slice(0, pointer.indexOf('/', 1) < 0 ? pointer.length : pointer.indexOf('/', 1)));
  if (site === undefined || schemaRoot === undefined) return undefined;
  return keywordRewrites.get(site.member.key)?.({ text, schema: site.object, member: site.member, root: schemaRoot });
}
