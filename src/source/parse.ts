import { appendPointer, type DiagnosticInput, type Position } from '../diagnostics/diagnostic.js';
import type { JsonArrayNode, JsonMember, JsonNode, JsonObjectNode } from './json-node.js';
import { findInvalidUtf8 } from './utf8.js';

/** Contract files are small; anything larger is a mistake (a data dump, a wrong path). */
export const maxSourceBytes = 1024 * 1024;
/** Deep enough for any schema within the 32-level limit plus nested annotation values. */
const maxParseDepth = 256;

export interface ParseResult {
  /** Undefined when the text is not JSON at all; a tree may still come with errors (comments, duplicates). */
  readonly root: JsonNode | undefined;
  readonly diagnostics: readonly DiagnosticInput[];
}

const origin: Position = { line: 1, column: 1, offset: 0 };

/** Parses file bytes: checks size and UTF-8 first, then the JSON itself. */
export function parseSourceBytes(bytes: Uint8Array): ParseResult {
  // Files are read only one byte past the limit, so their true size is not known here.
  if (bytes.length > maxSourceBytes) return fail(tooLarge());
  const invalidAt = findInvalidUtf8(bytes);
  if (invalidAt >= 0) {
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, invalidAt));
    return fail({
      code: 'JTC105',
      position: new LineMap(before).position(before.length),
      pointer: '',
      message: `invalid UTF-8 byte 0x${bytes[invalidAt]!.toString(16).padStart(2, '0')} at byte offset ${invalidAt}`,
      hint: 'save the file as UTF-8',
    });
  }
  // ignoreBOM keeps a BOM in the text, so that the parser skips exactly one, from bytes as from text.
  return parseSourceText(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes));
}

/**
 * Parses decoded text, within the same 1 MiB (as UTF-8) as a file unless `maxBytes` says otherwise
 * (`jtc import` reads larger tool lists). One leading byte order mark is accepted and ignored.
 */
export function parseSourceText(text: string, maxBytes: number = maxSourceBytes): ParseResult {
  const bytes = text.length > maxBytes ? text.length : utf8Length(text);
  if (bytes > maxBytes) return fail(tooLarge(bytes));
  const parser = new Parser(text);
  try {
    const root = parser.parseDocument();
    return { root, diagnostics: parser.diagnostics };
  } catch (error) {
    if (error instanceof SyntaxStop) return { root: undefined, diagnostics: parser.diagnostics };
    throw error;
  }
}

/** `bytes`: the size, when the whole text is at hand. */
function tooLarge(bytes?: number): DiagnosticInput {
  return {
    code: 'JTC107',
    position: origin,
    pointer: '',
    message: `file is ${bytes === undefined ? 'larger than' : `${bytes} bytes, more than`} the ${maxSourceBytes} bytes a contract file may have`,
    hint: 'split it into one contract per tool',
  };
}

/** UTF-8 length of text; a lone surrogate counts as the three bytes of its replacement character. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function fail(diagnostic: DiagnosticInput): ParseResult {
  return { root: undefined, diagnostics: [diagnostic] };
}

/** Thrown to abandon a parse after an unrecoverable syntax error has been recorded. */
class SyntaxStop extends Error {}

export class LineMap {
  private readonly lineStarts: number[] = [0];
  private readonly length: number;

  constructor(text: string) {
    this.length = text.length;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) this.lineStarts.push(i + 1);
    }
  }

  position(offset: number): Position {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - this.lineStarts[low]! + 1, offset };
  }

  /** The offset of a 1-based line and column (a diagnostic's), clamped to the text. */
  offset(line: number, column: number): number {
    const start = this.lineStarts[Math.min(Math.max(line, 1), this.lineStarts.length) - 1]!;
    return Math.min(start + column - 1, this.lineStarts[line] ?? this.length);
  }
}

const numberPattern = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const escapes: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Parser {
  readonly diagnostics: DiagnosticInput[] = [];
  private readonly lines: LineMap;
  private index = 0;

  constructor(private readonly text: string) {
    this.lines = new LineMap(text);
    if (text.charCodeAt(0) === 0xfeff) this.index = 1;
  }

  parseDocument(): JsonNode {
    this.skipTrivia();
    const root = this.parseValue('', 0);
    this.skipTrivia();
    if (this.index < this.text.length) this.stop(`unexpected ${this.describeHere()} after the end of the JSON value`, 'remove it');
    return root;
  }

  private parseValue(pointer: string, depth: number): JsonNode {
    if (depth > maxParseDepth) this.stop(`nesting deeper than ${maxParseDepth} levels`, 'flatten the value');
    const position = this.here();
    const c = this.text[this.index];
    switch (c) {
      case '{':
        return this.parseObject(pointer, position, depth);
      case '[':
        return this.parseArray(pointer, position, depth);
      case '"':
        return { kind: 'string', position, pointer, value: this.parseString() };
      case 't':
      case 'f':
      case 'n':
        return this.parseLiteral(pointer, position);
      default: {
        numberPattern.lastIndex = this.index;
        const match = numberPattern.exec(this.text);
        if (match === null) this.stop(`expected a JSON value, found ${this.describeHere()}`);
        this.index += match[0].length;
        if (/[0-9.eE+-]/.test(this.text[this.index] ?? '')) this.stop(`malformed number, found ${this.describeHere()}`, 'write numbers as in RFC 8259: no leading zeros, no leading "+", digits after "."');
        return { kind: 'number', position, pointer, lexeme: match[0] };
      }
    }
  }

  private parseLiteral(pointer: string, position: Position): JsonNode {
    for (const [word, node] of [
      ['true', { kind: 'boolean', position, pointer, value: true }],
      ['false', { kind: 'boolean', position, pointer, value: false }],
      ['null', { kind: 'null', position, pointer }],
    ] as const) {
      if (this.text.startsWith(word, this.index)) {
        this.index += word.length;
        return node;
      }
    }
    return this.stop(`expected a JSON value, found ${this.describeHere()}`);
  }

  private parseObject(pointer: string, position: Position, depth: number): JsonObjectNode {
    this.index++;
    const members: JsonMember[] = [];
    const seen = new Map<string, Position>();
    this.skipTrivia();
    if (this.text[this.index] === '}') {
      this.index++;
      return { kind: 'object', position, pointer, members };
    }
    for (;;) {
      this.skipTrivia();
      if (this.text[this.index] !== '"') this.stop(`expected a property name in double quotes, found ${this.describeHere()}`);
      const keyPosition = this.here();
      const key = this.parseString();
      this.skipTrivia();
      if (this.text[this.index] !== ':') this.stop(`expected ":" after property name, found ${this.describeHere()}`);
      this.index++;
      this.skipTrivia();
      const value = this.parseValue(appendPointer(pointer, key), depth + 1);
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, keyPosition);
        members.push({ key, keyPosition, value });
      } else {
        this.diagnostics.push({
          code: 'JTC103',
          position: keyPosition,
          pointer: appendPointer(pointer, key),
          message: `duplicate key ${JSON.stringify(key)}, first defined at ${first.line}:${first.column}`,
          hint: 'JSON.parse would silently keep the last one; keep exactly one',
        });
      }
      if (this.endOfContainer('}', pointer)) return { kind: 'object', position, pointer, members };
    }
  }

  private parseArray(pointer: string, position: Position, depth: number): JsonArrayNode {
    this.index++;
    const items: JsonNode[] = [];
    this.skipTrivia();
    if (this.text[this.index] === ']') {
      this.index++;
      return { kind: 'array', position, pointer, items };
    }
    for (;;) {
      this.skipTrivia();
      items.push(this.parseValue(appendPointer(pointer, items.length), depth + 1));
      if (this.endOfContainer(']', pointer)) return { kind: 'array', position, pointer, items };
    }
  }

  /** After a member or item: consumes `,` (reporting a trailing one) or the closing bracket. */
  private endOfContainer(close: '}' | ']', pointer: string): boolean {
    this.skipTrivia();
    const c = this.text[this.index];
    if (c === close) {
      this.index++;
      return true;
    }
    if (c !== ',') this.stop(`expected "," or "${close}", found ${this.describeHere()}`);
    const commaPosition = this.here();
    this.index++;
    this.skipTrivia();
    if (this.text[this.index] !== close) return false;
    this.diagnostics.push({ code: 'JTC102', position: commaPosition, pointer, message: `trailing comma before "${close}"`, hint: 'remove the comma' });
    this.index++;
    return true;
  }

  private parseString(): string {
    const start = this.index;
    this.index++;
    let result = '';
    let chunkStart = this.index;
    for (;;) {
      if (this.index >= this.text.length) this.stopAt(start, 'unterminated string', 'close it with a double quote');
      const code = this.text.charCodeAt(this.index);
      if (code === 0x22) {
        result += this.text.slice(chunkStart, this.index);
        this.index++;
        return result;
      }
      if (code < 0x20) this.stop(`control character U+${code.toString(16).padStart(4, '0').toUpperCase()} in a string`, 'escape it, e.g. \\n or \\u0000');
      if (code === 0x5c) {
        result += this.text.slice(chunkStart, this.index);
        result += this.parseEscape();
        chunkStart = this.index;
        continue;
      }
      this.index++;
    }
  }

  private parseEscape(): string {
    const letter = this.text[this.index + 1] ?? '';
    if (letter === 'u') {
      const hex = this.text.slice(this.index + 2, this.index + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.stop('invalid \\u escape: expected four hex digits');
      this.index += 6;
      // Lone surrogates are legal JSON escapes; they are kept as the UTF-16 unit they name.
      return String.fromCharCode(parseInt(hex, 16));
    }
    const replacement = escapes[letter];
    if (replacement === undefined) this.stop(`invalid escape "\\${letter}"`, 'valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX');
    this.index += 2;
    return replacement;
  }

  /** Whitespace, and comments: reported, then skipped so that later problems are found too. */
  private skipTrivia(): void {
    for (;;) {
      const c = this.text[this.index];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        this.index++;
        continue;
      }
      if (c === '/' && (this.text[this.index + 1] === '/' || this.text[this.index + 1] === '*')) {
        const position = this.here();
        const block = this.text[this.index + 1] === '*';
        const end = block ? this.text.indexOf('*/', this.index + 2) : this.text.slice(this.index).search(/[\r\n]|$/) + this.index;
        if (block && end < 0) this.stop('unterminated block comment');
        this.index = block ? end + 2 : end;
        this.diagnostics.push({ code: 'JTC101', position, pointer: '', message: 'comments are not JSON', hint: 'remove the comment; put notes in "description"' });
        continue;
      }
      return;
    }
  }

  private here(): Position {
    return this.lines.position(this.index);
  }

  private describeHere(): string {
    if (this.index >= this.text.length) return 'the end of the file';
    const codePoint = this.text.codePointAt(this.index)!;
    return JSON.stringify(String.fromCodePoint(codePoint));
  }

  private stop(message: string, hint?: string): never {
    return this.stopAt(this.index, message, hint);
  }

  private stopAt(offset: number, message: string, hint?: string): never {
    const diagnostic: DiagnosticInput = { code: 'JTC100', position: this.lines.position(offset), pointer: '', message };
    this.diagnostics.push(hint === undefined ? diagnostic : { ...diagnostic, hint });
    throw new SyntaxStop(message);
  }
}
