/** JSON number syntax, scanned without a regular expression. */
export function isJsonNumberText(text: string): boolean {
  let i = 0;
  const digits = (): number => {
    const from = i;
    while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    return i - from;
  };
  if (text.charCodeAt(i) === 0x2d) i++;
  if (text.charCodeAt(i) === 0x30) i++;
  else if (digits() === 0) return false;
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    if (digits() === 0) return false;
  }
  if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
    i++;
    if (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d) i++;
    if (digits() === 0) return false;
  }
  return i === text.length;
}
