import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A contract's text and a file's name reach the terminal in every human-facing report: none of
 * them may carry a character the terminal acts on (retitle, clear, hide, reorder, split a line).
 */

const bin = resolve('bin/jtc.js');
const jtc = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });

/** An escape sequence that retitles the terminal, one that clears it, a C1 CSI, a newline, and a right-to-left override. */
const hostile = '\u001b]0;owned\u0007\u001b[2J\u009b31m\nline\u202eevil\u007f';
const escaped = '\\u001b]0;owned\\u0007\\u001b[2J\\u009b31m\\u000aline\\u202eevil\\u007f';
/** The characters a terminal may act on, besides the newline that ends each line of a report. */
const unsafeIn = (text: string): number[] => [...text].map((c) => c.codePointAt(0)!).filter((code) => (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f) || [0x61c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].includes(code));

const contract = (property: Record<string, unknown>) => JSON.stringify({ name: 'notes.search', description: 'D.', input: { type: 'object', properties: { [hostile]: property }, additionalProperties: false }, output: { type: 'object' } }, null, 2);

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jtc-report-'));
  mkdirSync(join(dir, 'contracts'));
  return dir;
}

describe('human-facing output escapes what a terminal would act on; JSON output stays exact', () => {
  it('jtc check and jtc build: diagnostics name the property escaped, --format json keeps it exact', () => {
    const dir = folder();
    writeFileSync(join(dir, 'contracts', 'bad.contract.json'), contract({ type: 'string', pattern: '^a' }));
    for (const command of [
      ['check', 'contracts'],
      ['build', 'contracts', '-o', 'out'],
    ]) {
      const result = jtc(dir, ...command);
      expect(result.status).toBe(1);
      expect(unsafeIn(result.stdout)).toEqual([]);
      expect(result.stdout).toContain(`at /input/properties/${escaped}/pattern`);
      expect(result.stdout.split('\n')[0]).toMatch(/^contracts\/bad\.contract\.json:\d+:\d+ - error JTC104: /);
    }
    const json = JSON.parse(jtc(dir, 'check', 'contracts', '--format', 'json').stdout) as { diagnostics: { pointer: string }[] };
    expect(json.diagnostics[0]!.pointer).toBe(`/input/properties/${hostile}/pattern`);
  });

  it('jtc diff: a change is reported escaped', () => {
    const dir = folder();
    mkdirSync(join(dir, 'new'));
    writeFileSync(join(dir, 'contracts', 'a.contract.json'), contract({ type: 'string' }));
    writeFileSync(join(dir, 'new', 'a.contract.json'), contract({ type: 'string', maxLength: 5 }));
    const result = jtc(dir, 'diff', 'contracts', 'new');
    expect(result.status).toBe(1);
    expect(unsafeIn(result.stdout)).toEqual([]);
    expect(result.stdout).toContain(`at /input/properties/${escaped}/maxLength`);
    const json = JSON.parse(jtc(dir, 'diff', 'contracts', 'new', '--format', 'json').stdout) as { changes: { pointer: string }[] };
    expect(json.changes[0]!.pointer).toBe(`/input/properties/${hostile}/maxLength`);
  });

  it('file names and revisions in messages, on stdout and stderr', () => {
    const dir = folder();
    const name = `${hostile.replace('\n', '')}.contract.json`;
    writeFileSync(join(dir, 'contracts', name), '{');
    const check = jtc(dir, 'check', 'contracts');
    expect(check.status).toBe(1);
    expect(unsafeIn(check.stdout)).toEqual([]);
    const missing = jtc(dir, 'check', `contracts/${hostile}`);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`jtc: contracts/${escaped}: no such file or folder\n`);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const revision = jtc(dir, 'diff', '--base', `main${hostile}`, 'contracts');
    expect(revision.status).toBe(2);
    expect(unsafeIn(revision.stderr)).toEqual([]);
  });
});
