/**
 * The last string counted, and its count. A string whose UTF-16 length cannot decide its bounds is
 * counted by the check, then by the issue pass and for its message: only the first time costs.
 * It keeps that one string until the next is counted.
 */
const lastCounted: { text: string | undefined; count: number } = { text: undefined, count: 0 };

/** JSON Schema counts string length in code points; a lone surrogate counts as one. */
export function codePointLength(text: string): number {
  if (text === lastCounted.text) return lastCounted.count;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  lastCounted.text = text;
  lastCounted.count = count;
  return count;
}
