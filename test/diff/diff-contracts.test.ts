import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContracts } from '../../src/contract/check-contracts.js';
import { discoverContracts } from '../../src/contract/discover.js';
import { diffContracts } from '../../src/diff/diff-contracts.js';

type Schema = Record<string, unknown>;
const contract = (input: Schema, output: Schema = { type: 'object' }, name = 'notes.search') => ({ file: `${name}.contract.json`, text: JSON.stringify({ name, description: 'D.', input, output }, null, 2) });
const ir = (sources: { file: string; text: string }[]) => checkContracts(sources).contracts;

/** The codes a change from `before` to `after` gives, with their pointers. */
function changes(before: { file: string; text: string }[], after: { file: string; text: string }[]): string[] {
  return diffContracts(ir(before), ir(after), false).map((d) => `${d.code} ${d.pointer}`);
}

const q = (extra: Schema = {}): Schema => ({ type: 'object', properties: { q: { type: 'string', ...extra }, n: { type: 'integer' } }, required: ['q'], additionalProperties: false });

/**
 * Every kind of change, both directions. On the input a change that accepts less breaks callers
 * (JTC401) and its reverse is compatible (JTC410); on the output the other way round (JTC402).
 */
const pairs: [change: string, looser: Schema, tighter: Schema, at: string, reverseAt: string][] = [
  ['a property becomes required', q(), { ...q(), required: ['q', 'n'] }, '/input', '/input'],
  ['a lower bound is raised', q({ minLength: 1 }), q({ minLength: 3 }), '/input/properties/q/minLength', '/input/properties/q/minLength'],
  ['an upper bound is lowered', q({ maxLength: 10 }), q({ maxLength: 5 }), '/input/properties/q/maxLength', '/input/properties/q/maxLength'],
  ['a bound is added', q(), q({ maxLength: 5 }), '/input/properties/q/maxLength', '/input/properties/q'],
  ['an enum loses a value', q({ enum: ['a', 'b'] }), q({ enum: ['a'] }), '/input/properties/q/enum', '/input/properties/q/enum'],
  ['an object closes', { ...q(), additionalProperties: true }, q(), '/input', '/input'],
  ['a closed object loses a property', q(), { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false }, '/input', '/input/properties/n'],
  ['number becomes integer', { type: 'object', properties: { x: { type: 'number' } } }, { type: 'object', properties: { x: { type: 'integer' } } }, '/input/properties/x', '/input/properties/x'],
];

describe('jtc diff: classification from the IR', () => {
  it.each(pairs)('%s: breaks callers on the input; the reverse is compatible', (_, looser, tighter, at, reverseAt) => {
    expect(changes([contract(looser)], [contract(tighter)])).toEqual([`JTC401 ${at}`]);
    expect(changes([contract(tighter)], [contract(looser)])).toEqual([`JTC410 ${reverseAt}`]);
  });

  it.each(pairs)('%s: compatible on the output; the reverse breaks consumers', (_, looser, tighter, at, reverseAt) => {
    expect(changes([contract({}, looser)], [contract({}, tighter)])).toEqual([`JTC410 ${at.replace('/input', '/output')}`]);
    expect(changes([contract({}, tighter)], [contract({}, looser)])).toEqual([`JTC402 ${reverseAt.replace('/input', '/output')}`]);
  });

  it('another type on either side breaks both callers and consumers', () => {
    expect(changes([contract({ type: 'object', properties: { x: { type: 'string' } } })], [contract({ type: 'object', properties: { x: { type: 'integer' } } })])).toEqual(['JTC401 /input/properties/x']);
    expect(changes([contract({}, { type: 'object', properties: { x: { type: 'string' } } })], [contract({}, { type: 'object', properties: { x: { type: 'integer' } } })])).toEqual(['JTC402 /output/properties/x']);
  });

  it('compares bounds as exact decimals', () => {
    const bounded = (maximum: string) => ({ file: 'a.contract.json', text: `{"name":"a.b","description":"D.","input":{"type":"array","items":{"type":"number","maximum":${maximum}}},"output":{}}` });
    const exact = (a: string, b: string) => diffContracts(checkContracts([bounded(a)], { exactNumbers: true }).contracts, checkContracts([bounded(b)], { exactNumbers: true }).contracts, true).map((d) => d.code);
    expect(exact('0.30000000000000000002', '0.30000000000000000001')).toEqual(['JTC401']);
    expect(exact('1.0', '1')).toEqual([]);
    expect(diffContracts(ir([bounded('0.30000000000000000002')]), ir([bounded('0.30000000000000000001')]), false)).toEqual([]);
  });

  it('a removed tool breaks its callers, an added one is compatible, at the name', () => {
    expect(changes([contract({}, {}, 'a.one')], [contract({}, {}, 'a.two')])).toEqual(['JTC411 /name', 'JTC400 /name']);
  });

  it("reports the new version's file, line and column", () => {
    const [found] = diffContracts(ir([contract(q())]), ir([contract(q({ maxLength: 5 }))]), false);
    expect(found).toMatchObject({ file: 'notes.search.contract.json', line: 9, column: 22, severity: 'error' });
  });
});

describe('fixtures/diff: one change per code between old/ and new/, at its exact position', () => {
  const expected = JSON.parse(readFileSync('fixtures/diff/expected.json', 'utf8')) as Record<string, { code: string; line: number; column: number; pointer: string }>;
  const side = (folder: string) => ir(discoverContracts([`fixtures/diff/${folder}`]).map((file) => ({ file, text: readFileSync(file, 'utf8') })));
  const found = diffContracts(side('old'), side('new'), false);
  it.each(Object.entries(expected))('%s', (file, want) => {
    expect(found.filter((d) => d.file === `fixtures/diff/${file}`).map(({ code, line, column, pointer }) => ({ code, line, column, pointer }))).toEqual([want]);
    expect(file.split('/')[1]!.startsWith(want.code)).toBe(true);
  });
  it('has nothing else', () => expect(found).toHaveLength(Object.keys(expected).length));
});

describe('jtc diff on the command line', () => {
  const bin = resolve('bin/jtc.js');
  const jtc = (args: string[], cwd: string) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });

  it('compares two folders, exits 1 on a breaking change and 0 on compatible ones, in text and json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-diff-'));
    for (const [folder, schema] of [
      ['old', q()],
      ['new', q({ maxLength: 5 })],
      ['wider', { ...q(), required: [] }],
    ] as const) {
      mkdirSync(join(dir, folder));
      writeFileSync(join(dir, folder, 'notes.search.contract.json'), contract(schema).text);
    }
    const breaking = jtc(['diff', 'old', 'new'], dir);
    expect(breaking.status).toBe(1);
    expect(breaking.stdout).toBe(
      'new/notes.search.contract.json:9:22 - error JTC401: input: "maxLength" 5 was added; the input accepts less, so calls that worked may now be denied at /input/properties/q/maxLength (breaking for callers: keep the old rule, or release it as a new tool)\n1 → 1 contracts: 1 breaking, 0 compatible changes\n',
    );
    const compatible = jtc(['diff', 'old', 'wider', '--format', 'json'], dir);
    expect(compatible.status).toBe(0);
    expect(JSON.parse(compatible.stdout)).toMatchObject({ summary: { breaking: 0, compatible: 1 }, changes: [{ code: 'JTC410', severity: 'info' }] });
    expect(jtc(['diff', 'old'], dir).status).toBe(2);
  });

  it('compares a folder with a git revision', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-diff-git-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('config', 'user.email', 'ci@example.invalid');
    git('config', 'user.name', 'CI');
    mkdirSync(join(dir, 'contracts'));
    writeFileSync(join(dir, 'contracts', 'notes.search.contract.json'), contract(q()).text);
    git('add', '.');
    git('commit', '-qm', 'contracts');
    writeFileSync(join(dir, 'contracts', 'notes.search.contract.json'), contract({ ...q(), required: ['q', 'n'] }).text);
    const result = jtc(['diff', '--base', 'HEAD', 'contracts'], dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('contracts/notes.search.contract.json:4:12 - error JTC401: input: property "n" became required');
    expect(jtc(['diff', '--base', 'no-such-rev', 'contracts'], dir)).toMatchObject({ status: 2 });
  });
});
