import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { generatedMarker } from '../../src/emit/marker.js';
import { assertOutputFolder, compareOutput, writeOutput } from '../../src/output/write.js';

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
    mkdirSync(join(out, `.index.ts.${process.pid}.tmp`));
    expect(() => writeOutput(out, next)).toThrow();
    expect(files.map((f) => readFileSync(join(out, f.path), 'utf8'))).toEqual(files.map((f) => f.text));
    expect(existsSync(join(out, `.a.ts.${process.pid}.tmp`))).toBe(false);
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
