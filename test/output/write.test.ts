import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/diagnostics/usage-error.js';
import { generatedMarker } from '../../src/emit/marker.js';
import { assertOutputFolder, compareOutput, writeAllOrNothing, writeOutput } from '../../src/output/write.js';

const generated = (body: string) => `${generatedMarker} 0.0.0\n${body}\n`;
const files = [
  { path: 'a.ts', text: generated('a') },
  { path: 'index.ts', text: generated('index') },
];

let out: string;
beforeEach(() => {
  out = join(mkdtempSync(join(tmpdir(), 'jtc-write-')), 'generated');
});

describe('writeOutput', () => {
  it('creates the folder, writes every file, and rewrites nothing unchanged', () => {
    expect(writeOutput(out, files)).toEqual({ written: ['a.ts', 'index.ts'], deleted: [], unchanged: [] });
    expect(readFileSync(join(out, 'a.ts'), 'utf8')).toBe(files[0]!.text);
    expect(writeOutput(out, files)).toEqual({ written: [], deleted: [], unchanged: ['a.ts', 'index.ts'] });
  });

  it('deletes generated files no contract produces any more, and nothing else', () => {
    writeOutput(out, files);
    writeFileSync(join(out, 'old.ts'), generated('old'));
    writeFileSync(join(out, 'mine.ts'), 'export const handWritten = true;\n');
    expect(writeOutput(out, files).deleted).toEqual(['old.ts']);
    expect(existsSync(join(out, 'mine.ts'))).toBe(true);
  });

  it('refuses to overwrite a file without the generated header', () => {
    mkdirSync(out);
    writeFileSync(join(out, 'a.ts'), 'export const handWritten = true;\n');
    expect(() => writeOutput(out, files)).toThrow(/not a generated file/);
    expect(readFileSync(join(out, 'a.ts'), 'utf8')).toBe('export const handWritten = true;\n');
    expect(existsSync(join(out, 'index.ts'))).toBe(false);
  });

  it('leaves the complete previous output when a write fails part-way', () => {
    writeOutput(out, files);
    const next = files.map((f) => ({ ...f, text: generated(`${f.path} v2`) }));
    // The second temporary file cannot be created (a folder stands at its name): the first was written.
    const names = ['.jtc-00000000000000a1.tmp', '.jtc-00000000000000a2.tmp', '.jtc-00000000000000a3.tmp'];
    mkdirSync(join(out, names[1]!));
    let n = 0;
    expect(() => writeOutput(out, next, { tempName: () => names[n++]! })).toThrow();
    expect(files.map((f) => readFileSync(join(out, f.path), 'utf8'))).toEqual(files.map((f) => f.text));
    expect(existsSync(join(out, names[0]!))).toBe(false);
  });
});

describe('compareOutput', () => {
  it('lists stale, missing and orphaned files', () => {
    writeOutput(out, files);
    writeFileSync(join(out, 'a.ts'), generated('edited'));
    writeFileSync(join(out, 'gone.ts'), generated('gone'));
    writeFileSync(join(out, 'notes.md'), 'not generated');
    expect(compareOutput(out, [...files, { path: 'b.ts', text: generated('b') }])).toEqual({ stale: ['a.ts'], missing: ['b.ts'], orphaned: ['gone.ts'] });
  });
});

describe('assertOutputFolder', () => {
  it('refuses a folder that holds or contains contract sources', () => {
    mkdirSync(out);
    writeFileSync(join(out, 'x.contract.json'), '{}');
    expect(() => assertOutputFolder(out, [])).toThrow(/holds the contract source/);
    expect(() => assertOutputFolder(join(out, '..'), [join(out, 'x.contract.json')])).toThrow(/holds the contract source/);
  });
});

describe('writeOutput against hostile folder states', () => {
  it('never writes through a symlink planted at a temporary name', () => {
    mkdirSync(out);
    const victim = join(out, '..', 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(out, '.jtc-00000000000000b1.tmp'));
    expect(() => writeOutput(out, files, { tempName: () => '.jtc-00000000000000b1.tmp' })).toThrow();
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('removes temporary files a killed build left, and nothing else', () => {
    mkdirSync(out);
    const stale = ['.jtc-0123456789abcdef.tmp', '.a.ts.4242.tmp', '.index.d.ts.7.tmp'];
    for (const name of stale) writeFileSync(join(out, name), '');
    writeFileSync(join(out, '.jtc-notes.tmp'), 'mine');
    writeFileSync(join(out, 'draft.tmp'), 'mine');
    writeOutput(out, files);
    expect(readdirSync(out).sort()).toEqual(['.jtc-notes.tmp', 'a.ts', 'draft.tmp', 'index.ts']);
  });

  it('says so when a folder stands where a module belongs', () => {
    mkdirSync(join(out, 'a.ts'), { recursive: true });
    expect(() => writeOutput(out, files)).toThrow(UsageError);
    expect(() => writeOutput(out, files)).toThrow(`${join(out, 'a.ts')}: is a folder where a generated file belongs; move or remove it`);
    expect(existsSync(join(out, 'index.ts'))).toBe(false);
  });
});

describe('writeAllOrNothing without overwriting (jtc init)', () => {
  it('places every file, or none when a name was taken meanwhile, and leaves what took it alone', () => {
    mkdirSync(out, { recursive: true });
    const staged = ['a.ts', 'b.ts', 'c.ts'].map((name, index) => ({ target: join(out, name), temp: join(out, `.jtc-${String(index).repeat(16)}.tmp`), text: `${name}\n` }));
    // A file that appeared at the second name after the check: the first is placed, the second fails.
    writeFileSync(join(out, 'b.ts'), 'theirs');
    expect(() => writeAllOrNothing(staged, { overwrite: false })).toThrow(UsageError);
    expect(readdirSync(out)).toEqual(['b.ts']);
    expect(readFileSync(join(out, 'b.ts'), 'utf8')).toBe('theirs');
    rmSync(join(out, 'b.ts'));
    writeAllOrNothing(staged, { overwrite: false });
    expect(readdirSync(out).map((name) => [name, readFileSync(join(out, name), 'utf8')])).toEqual([
      ['a.ts', 'a.ts\n'],
      ['b.ts', 'b.ts\n'],
      ['c.ts', 'c.ts\n'],
    ]);
  });
});
