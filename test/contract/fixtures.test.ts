import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkContracts } from '../../src/contract/check-contracts.js';
import { discoverContracts, readContractSources } from '../../src/contract/discover.js';
import { diagnosticCodes } from '../../src/diagnostics/codes.js';

interface Expected {
  code: string;
  line: number;
  column: number;
  pointer: string;
}

function checkFolder(folder: string) {
  const sources = readContractSources(discoverContracts([`fixtures/${folder}`])).map((s) => ({ file: s.file, text: s.bytes }));
  return { sources, result: checkContracts(sources) };
}

describe.each(['invalid', 'warnings'])('fixtures/%s', (folder) => {
  const expected = JSON.parse(readFileSync(`fixtures/${folder}/expected.json`, 'utf8')) as Record<string, Expected>;
  const { result } = checkFolder(folder);

  it.each(Object.entries(expected))('%s yields exactly its code at its position', (file, want) => {
    const found = result.diagnostics.filter((d) => d.file === `fixtures/${folder}/${file}`);
    expect(found.map(({ code, line, column, pointer }) => ({ code, line, column, pointer }))).toEqual([want]);
    expect(found[0]!.message.length).toBeGreaterThan(10);
  });

  it('names the code in its file name, and every diagnostic belongs to an expected file', () => {
    for (const [file, want] of Object.entries(expected)) expect(file.startsWith(want.code)).toBe(true);
    expect(result.diagnostics).toHaveLength(Object.keys(expected).length);
  });
});

describe('fixture coverage', () => {
  it('has one fixture for every diagnostic code', () => {
    const covered = new Set(['invalid', 'warnings', 'targets', 'diff', 'import/findings'].flatMap((folder) => Object.values(JSON.parse(readFileSync(`fixtures/${folder}/expected.json`, 'utf8')) as Record<string, Expected>).map((e) => e.code)));
    expect([...covered].sort()).toEqual(Object.keys(diagnosticCodes).sort());
  });
});

describe.each(['valid', 'corpus'])('fixtures/%s', (folder) => {
  it('checks cleanly: no error, no warning', () => {
    const { sources, result } = checkFolder(folder);
    expect(result.diagnostics).toEqual([]);
    expect(result.contracts).toHaveLength(sources.length);
  });
});
