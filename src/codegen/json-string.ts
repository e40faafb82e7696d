/**
 * `JSON.stringify` of a string, the one quoting of generated code and canonical JSON alike. Most keys and values are printable ASCII without `"` or `\`, which
 * JSON.stringify would only wrap in quotes: those skip its cost.
 */
export function jsonString(value: string): string {
  return isPlainAscii(value) ? `"${value}"` : JSON.stringify(value);
}

const plainAscii = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Printable ASCII without `"` or `\`: JSON writes it as it is, one byte a character. */
export function isPlainAscii(value: string): boolean {
  return plainAscii.test(value);
}
