import { freeToolName } from '../contract/names.js';
import { replaceValue, type Rewrite } from '../source/edits.js';
import { nodeAt } from '../source/json-node.js';
import { parseSourceText } from '../source/parse.js';
import { exactRewrite, type RewriteSite } from '../subset/rewrites.js';

/**
 * The quick fix for one diagnostic of a contract's text, where the fix is exact: the subset's
 * rewrites (`subset/rewrites.ts`, shared with `jtc import`), and for a tool name that another
 * contract of the project already uses or collides with (JTC124, JTC125), the first free name.
 */
export function quickFix(text: string, site: RewriteSite, otherToolNames: () => readonly string[]): Rewrite | undefined {
  const root = parseSourceText(text).root;
  if (site.code !== 'JTC124' && site.code !== 'JTC125') return exactRewrite(text, root, site);
  const name = root === undefined ? undefined : nodeAt(root, site.pointer);
  if (name?.kind !== 'string') return undefined;
  const free = freeToolName(name.value, otherToolNames());
  return free === undefined ? undefined : { title: `rename the tool to ${JSON.stringify(free)}`, edits: [replaceValue(text, name, JSON.stringify(free))] };
}
