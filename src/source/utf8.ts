/** Byte offset of the first ill-formed UTF-8 sequence (overlongs, surrogates and > U+10FFFF included), or -1. */
export function findInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    let length: number;
    let min: number;
    let codePoint: number;
    if (lead >= 0xc2 && lead <= 0xdf) [length, min, codePoint] = [2, 0x80, lead & 0x1f];
    else if (lead >= 0xe0 && lead <= 0xef) [length, min, codePoint] = [3, 0x800, lead & 0x0f];
    else if (lead >= 0xf0 && lead <= 0xf4) [length, min, codePoint] = [4, 0x10000, lead & 0x07];
    else return i;
    if (i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k]!;
      if ((next & 0xc0) !== 0x80) return i;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return i;
    i += length;
  }
  return -1;
}
