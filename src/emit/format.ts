/**
 * The format stage: generated code is built without indentation and indented once, here, by its
 * braces. A line ending in `{` opens a level, a line starting with `}` closes one, and the
 * statements under a `case` label sit one level deeper. Generated lines never hold a multi-line
 * string (every literal is JSON-escaped), so braces inside literals cannot be at a line's edge
 * unless they are the line's own structure.
 */
export function indentByBraces(text: string): string {
  let depth = 0;
  let inCase = false;
  let out = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') {
      out += '\n';
      continue;
    }
    const isLabel = line.startsWith('case ') || line.startsWith('default:');
    if (line.startsWith('}')) {
      depth--;
      inCase = false;
    }
    if (isLabel) inCase = false;
    out += `${padding(depth + (inCase ? 1 : 0))}${line}\n`;
    if (isLabel && line.endsWith(':')) inCase = true;
    if (line.endsWith('{')) depth++;
  }
  return out.slice(0, -1);
}

const paddings: string[] = [''];

function padding(level: number): string {
  while (paddings.length <= level) paddings.push(`${paddings[paddings.length - 1]}  `);
  return paddings[level]!;
}
