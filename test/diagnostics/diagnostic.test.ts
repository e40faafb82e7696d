import { describe, expect, it } from 'vitest';
import { diagnosticCodes } from '../../src/diagnostics/codes.js';
import { appendPointer, compareDiagnostics, escapeForTerminal, formatDiagnostic, makeDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { UsageError } from '../../src/diagnostics/usage-error.js';

const at = (line: number, column: number) => ({ line, column, offset: 0 });

describe('diagnostics', () => {
  it('format as file:line:col - severity code: message at pointer (hint)', () => {
    const d = makeDiagnostic('a.contract.json', { code: 'JTC104', position: at(7, 47), pointer: '/input/pattern', message: 'unsupported keyword "pattern"', hint: 'check it in the handler' });
    expect(formatDiagnostic(d)).toBe('a.contract.json:7:47 - error JTC104: unsupported keyword "pattern" at /input/pattern (check it in the handler)');
    expect(formatDiagnostic(makeDiagnostic('a', { code: 'JTC204', position: at(1, 1), pointer: '', message: 'empty' }))).toBe('a:1:1 - warning JTC204: empty');
  });

  it('escape, on every part of the line, what a terminal acts on or what hides text', () => {
    const d = makeDiagnostic('a\u001b[2J.json', { code: 'JTC104', position: at(1, 2), pointer: '/properties/\u001b]0;t\u0007', message: 'x\ny\u009b', hint: 'h\u202eh\u2028' });
    expect(formatDiagnostic(d)).toBe('a\\u001b[2J.json:1:2 - error JTC104: x\\u000ay\\u009b at /properties/\\u001b]0;t\\u0007 (h\\u202eh\\u2028)');
    const every = [...Array(0x20).keys(), 0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i), 0x61c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2066, 0x2069].map((code) => String.fromCharCode(code));
    for (const character of every) expect(escapeForTerminal(character)).toMatch(/^\\u[0-9a-f]{4}$/);
    expect(escapeForTerminal('café ✓ 𝄞 \\u0041 C:\\dir ~ "quoted"')).toBe('café ✓ 𝄞 \\u0041 C:\\dir ~ "quoted"');
    expect(new UsageError('no such file \u001b[2J').message).toBe('no such file \\u001b[2J');
  });

  it('sort by file, then position, then code', () => {
    const make = (file: string, line: number, code: 'JTC104' | 'JTC110') => makeDiagnostic(file, { code, position: at(line, 1), pointer: '', message: '' });
    const sorted = [make('b', 1, 'JTC104'), make('a', 2, 'JTC104'), make('a', 2, 'JTC110'), make('a', 1, 'JTC110')].sort(compareDiagnostics);
    expect(sorted.map((d) => `${d.file}${d.line}${d.code}`)).toEqual(['a1JTC110', 'a2JTC104', 'a2JTC110', 'b1JTC104']);
  });

  it('escape JSON Pointer tokens', () => {
    expect(appendPointer('/properties', 'a/b~c')).toBe('/properties/a~1b~0c');
    expect(appendPointer('', 0)).toBe('/0');
  });

  it('keep their severity by range: JTC1xx, JTC30x, JTC40x and JTC50x errors, JTC2xx, JTC35x and JTC55x warnings, JTC41x info', () => {
    const bySeries = (code: string): string => (/^JTC(1|30|40|50)/.test(code) ? 'error' : /^JTC(2|35|55)/.test(code) ? 'warning' : 'info');
    for (const [code, { severity }] of Object.entries(diagnosticCodes)) expect({ code, severity }).toEqual({ code, severity: bySeries(code) });
  });
});
