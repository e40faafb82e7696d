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
  const out: string[] = [];
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line === '') {
      out.push('');
      continue;
    }
    const isLabel = line.startsWith('case ') || line.startsWith('default:');
    if (line.charCodeAt(0) === closeBrace) {
      depth--;
      inCase = false;
    }
    if (isLabel) inCase = false;
    out.push(padding(depth + (inCase ? 1 : 0)) + line);
    if (isLabel && line.endsWith(':')) inCase = true;
    if (line.charCodeAt(line.length - 1) === openBrace) depth++;
  }
  return out.join('\n');
}

const openBrace = 0x7b;
const closeBrace = 0x7d;

const paddings: string[] = [''];

function padding(level: number): string {
  while (paddings.length <= level) paddings.push(`${paddings[paddings.length - 1]}  `);
  return paddings[level]!;
}
