/**
 * Splits text that arrives in chunks at a separator (`\n` between stdio messages, a blank line
 * between server-sent events). Each chunk is searched once, with only the end of the one before it
 * (where a separator may start), and the parts are joined only when one is complete: a message
 * that arrives in thousands of chunks costs its length, not its length times the chunks.
 */
export class Frames {
  readonly #separator: string;
  readonly #maxLength: number;
  readonly #tooLong: () => Error;
  /** The chunks of the part not yet ended, and their length. */
  #pending: string[] = [];
  #length = 0;
  /** The pending part's last characters, where a separator may begin. */
  #tail = '';

  /** `maxLength`: the longest part (in UTF-16 units) kept; past it, `tooLong()` is thrown. */
  constructor(separator: string, maxLength: number, tooLong: () => Error) {
    this.#separator = separator;
    this.#maxLength = maxLength;
    this.#tooLong = tooLong;
  }

  /** The parts this chunk ends, in order. */
  push(chunk: string): string[] {
    const parts: string[] = [];
    const overlap = this.#separator.length - 1;
    let rest = chunk;
    for (;;) {
      const carried = this.#tail;
      const at = (carried + rest).indexOf(this.#separator);
      if (at < 0) break;
      const end = at - carried.length;
      const joined = this.#pending.join('') + rest.slice(0, Math.max(end, 0));
      parts.push(end < 0 ? joined.slice(0, end) : joined);
      rest = rest.slice(end + this.#separator.length);
      this.#pending = [];
      this.#length = 0;
      this.#tail = '';
    }
    if (rest !== '') {
      this.#pending.push(rest);
      this.#length += rest.length;
      this.#tail = overlap === 0 ? '' : (this.#tail + rest).slice(-overlap);
      if (this.#length > this.#maxLength) throw this.#tooLong();
    }
    return parts;
  }
}
