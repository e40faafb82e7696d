import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol/node';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { jtc } from '../cli/jtc-process.js';
import { LanguageClient, scratchWorkspace, uriOf } from './client.js';

/** What `jtc check --format json` reports, run in the workspace as a user (or CI) runs it. */
function cliDiagnostics(cwd: string, args: string[] = []): Diagnostic[] {
  const result = jtc(['check', '--format', 'json', ...args], cwd);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout).diagnostics;
}

/** A published diagnostic as the CLI's would read: code, place, message and severity. */
const shown = (d: LspDiagnostic) => ({ code: d.code, line: d.range.start.line + 1, column: d.range.start.character + 1, message: d.message, severity: d.severity });

/** The CLI's diagnostic as the server publishes it under `"strict": true`: warnings as errors. */
const asPublishedStrict = (d: Diagnostic) => ({
  code: d.code,
  line: d.line,
  column: d.column,
  message: `${d.message}${d.pointer === '' ? '' : ` at ${d.pointer}`}${d.hint === undefined ? '' : ` (${d.hint})`}`,
  severity: 1,
});

const codesOf = (list: readonly LspDiagnostic[]): string[] => list.map((d) => String(d.code));

/** Targets, strictness and exact numbers, all three unlike the defaults; a folder and a file named whatever its name. */
const strictConfig = { contracts: ['contracts', 'named/optional.json'], targets: ['openai-strict'], strict: true, exactNumbers: true };

describe('jtc lsp: the options of jtc.config.json, as jtc check takes them', () => {
  let dir: string;
  let client: LanguageClient;
  beforeAll(async () => {
    dir = scratchWorkspace('fixtures/targets', 'fixtures/warnings', 'fixtures/invalid/JTC117-bound-overflows-f64.contract.json');
    // A contract outside the configured folders: jtc check leaves it out unless it is named.
    mkdirSync(join(dir, 'drafts'));
    cpSync('fixtures/targets/JTC351-optional-property-under-openai-strict.contract.json', join(dir, 'drafts/optional.contract.json'));
    // A second contract with the tool name of one in contracts/: one project with them, so JTC124.
    mkdirSync(join(dir, 'named'));
    cpSync('fixtures/targets/JTC351-optional-property-under-openai-strict.contract.json', join(dir, 'named/optional.json'));
    writeFileSync(join(dir, 'jtc.config.json'), JSON.stringify(strictConfig, null, 2));
    client = await LanguageClient.start(dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it('publishes for the configured contracts what jtc check prints there: the same codes at the same places, warnings as errors', async () => {
    const cli = cliDiagnostics(dir);
    // The configuration is honoured by the CLI: target findings, warnings, and no JTC117 for the huge bound.
    const codes = new Set(cli.map((d) => d.code));
    expect([...codes].some((code) => code.startsWith('JTC3'))).toBe(true);
    expect(cli.some((d) => d.severity === 'warning')).toBe(true);
    expect(codes.has('JTC117')).toBe(false);
    expect(cli.filter((d) => d.code === 'JTC124').map((d) => d.file)).toEqual(['named/optional.json']);
    const files = [...new Set([...cli.map((d) => d.file), 'contracts/JTC117-bound-overflows-f64.contract.json'])];
    expect(files.length).toBeGreaterThan(12);
    for (const file of files) {
      // An open document always hears that it was checked, clean or not.
      await client.open(join(dir, file));
      const published = await client.waitFor(join(dir, file), () => true);
      expect(published.map(shown), file).toEqual(cli.filter((d) => d.file === file).map((d) => asPublishedStrict(d)));
    }
  });

  it('checks a contract outside them, once opened, as jtc check naming it does: with the configuration that applies to its folder', async () => {
    const draft = join(dir, 'drafts/optional.contract.json');
    await client.settled();
    expect(client.diagnostics.has(uriOf(draft))).toBe(false);
    await client.open(draft);
    const published = await client.waitFor(draft, () => true);
    const cli = cliDiagnostics(dir, ['drafts/optional.contract.json']);
    expect(codesOf(published)).toEqual(['JTC351']);
    expect(published.map(shown)).toEqual(cli.map((d) => asPublishedStrict(d)));
  });
});

describe('jtc lsp: a change of jtc.config.json', () => {
  let dir: string;
  let client: LanguageClient;
  let config: string;
  let open: string;
  let closed: string;
  beforeAll(async () => {
    dir = scratchWorkspace('fixtures/targets/JTC351-optional-property-under-openai-strict.contract.json', 'fixtures/warnings/JTC204-empty-enum.contract.json');
    config = join(dir, 'jtc.config.json');
    open = join(dir, 'contracts/JTC351-optional-property-under-openai-strict.contract.json');
    closed = join(dir, 'contracts/JTC204-empty-enum.contract.json');
    client = await LanguageClient.start(dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it('re-checks open and closed contracts when the file is created or changed on disk', async () => {
    await client.open(open);
    await client.waitForCodes(open, []);
    expect((await client.waitForCodes(closed, ['JTC204']))[0]!.severity).toBe(2);

    writeFileSync(config, JSON.stringify({ targets: ['openai-strict'], strict: true }));
    await client.filesChanged([{ path: config, type: 'created' }]);
    expect((await client.waitForCodes(open, ['JTC351']))[0]!.severity).toBe(1);
    await client.waitFor(closed, (list) => list[0]?.severity === 1);
  });

  it('takes an edited configuration when it is saved, not while it is typed', async () => {
    const relaxed = JSON.stringify({ targets: [] });
    await client.open(config);
    await client.change(config, relaxed);
    await client.settled();
    expect(codesOf(client.diagnostics.get(uriOf(open))!)).toEqual(['JTC351']);

    writeFileSync(config, relaxed);
    await client.save(config);
    await client.waitForCodes(open, []);
    await client.waitFor(closed, (list) => list[0]?.severity === 2);
    await client.close(config);
  });
});

describe('jtc lsp: the problems of jtc.config.json', () => {
  let dir: string;
  let client: LanguageClient;
  let config: string;
  let contract: string;
  const broken = '{\n  "strict": true,\n  "targets": ["openai-strictt"],\n  "strct": false\n}\n';
  beforeAll(async () => {
    dir = scratchWorkspace('fixtures/targets/JTC351-optional-property-under-openai-strict.contract.json', 'fixtures/warnings/JTC204-empty-enum.contract.json');
    config = join(dir, 'jtc.config.json');
    contract = join(dir, 'contracts/JTC204-empty-enum.contract.json');
    writeFileSync(config, broken);
    client = await LanguageClient.start(dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it('publishes every problem on the file, where and as jtc check prints it, and checks the contracts with what could be read', async () => {
    const cli = jtc(['check', 'contracts'], dir);
    expect(cli.code).toBe(2);
    const expected = cli.stderr
      .trimEnd()
      .split('\n')
      .map((line) => {
        const [, row, column, message] = /^jtc: jtc\.config\.json:(\d+):(\d+) - error: (.*)$/.exec(line)!;
        return { code: undefined, line: Number(row), column: Number(column), message, severity: 1 };
      });
    expect(expected).toHaveLength(2);
    await client.waitFor(config, (list) => list.length > 0);
    // Published once the projects are loaded, and not withdrawn after.
    await client.settled();
    const published = client.diagnostics.get(uriOf(config))!;
    expect(published.map(shown)).toEqual(expected);
    expect(published.every((d) => d.source === 'jtc')).toBe(true);
    expect(readFileSync(config, 'utf8').split('\n')[3]!.slice(published[1]!.range.start.character, published[1]!.range.end.character)).toBe('"strct"');
    // "strict": true was read; the target with a problem falls back to none.
    const checked = await client.waitForCodes(contract, ['JTC204']);
    expect(checked[0]!.severity).toBe(1);
  });

  it('shows the problems of an open configuration as it is typed, and those on disk again once it is closed unsaved', async () => {
    await client.open(config);
    await client.change(config, '{\n  // strict everywhere\n  "strict": true\n}\n');
    const typed = await client.waitFor(config, (list) => list.length === 1);
    expect(typed.map(shown)).toEqual([{ code: undefined, line: 2, column: 3, message: 'comments are not JSON (remove the comment)', severity: 1 }]);
    await client.change(config, '{\n  "strict": true\n}\n');
    await client.waitFor(config, (list) => list.length === 0);
    await client.close(config);
    await client.waitFor(config, (list) => list.length === 2);
  });

  it('clears them once the file is fixed, and checks with all of it', async () => {
    writeFileSync(config, '{\n  "strict": true,\n  "targets": ["openai-strict"]\n}\n');
    await client.filesChanged([{ path: config, type: 'changed' }]);
    await client.waitFor(config, (list) => list.length === 0);
    await client.waitForCodes(join(dir, 'contracts/JTC351-optional-property-under-openai-strict.contract.json'), ['JTC351']);
  });
});

describe('jtc lsp: a workspace holding several projects, each with its jtc.config.json', () => {
  let dir: string;
  let client: LanguageClient;
  const optional = 'fixtures/targets/JTC351-optional-property-under-openai-strict.contract.json';
  beforeAll(async () => {
    dir = scratchWorkspace();
    mkdirSync(join(dir, '.git'));
    // Two packages with contracts of the same tool name, one configured: two projects, as jtc check in each package sees them.
    for (const pkg of ['strict', 'plain']) {
      mkdirSync(join(dir, 'packages', pkg, 'contracts'), { recursive: true });
      cpSync(optional, join(dir, 'packages', pkg, 'contracts/optional.contract.json'));
    }
    writeFileSync(join(dir, 'packages/strict/jtc.config.json'), JSON.stringify({ contracts: ['contracts'], targets: ['openai-strict'], strict: true }));
    // A contract of the configured package that its configuration leaves out.
    mkdirSync(join(dir, 'packages/strict/drafts'));
    cpSync(optional, join(dir, 'packages/strict/drafts/optional.contract.json'));
    client = await LanguageClient.start(dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it("checks each package's contracts with its own configuration, and apart from the other package", async () => {
    const strict = join(dir, 'packages/strict/contracts/optional.contract.json');
    const plain = join(dir, 'packages/plain/contracts/optional.contract.json');
    const cli = cliDiagnostics(join(dir, 'packages/strict'));
    expect(cli.map((d) => d.code)).toEqual(['JTC351']);
    for (const path of [strict, plain]) await client.open(path);
    const published = await client.waitFor(strict, () => true);
    expect(published.map(shown)).toEqual(cli.map((d) => asPublishedStrict(d)));
    expect(await client.waitFor(plain, () => true)).toEqual([]);
    expect(cliDiagnostics(dir, ['packages/plain/contracts'])).toEqual([]);
  });

  it("checks a package's contract that its configuration leaves out alone, with that configuration, once opened", async () => {
    const draft = join(dir, 'packages/strict/drafts/optional.contract.json');
    await client.settled();
    expect(client.diagnostics.has(uriOf(draft))).toBe(false);
    await client.open(draft);
    const published = await client.waitFor(draft, () => true);
    const cli = cliDiagnostics(join(dir, 'packages/strict'), ['drafts/optional.contract.json']);
    expect(cli.map((d) => d.code)).toEqual(['JTC351']);
    expect(published.map(shown)).toEqual(cli.map((d) => asPublishedStrict(d)));
  });
});

describe('jtc lsp: a contracts path in jtc.config.json that does not exist', () => {
  let dir: string;
  let client: LanguageClient;
  beforeAll(async () => {
    dir = scratchWorkspace('fixtures/warnings/JTC204-empty-enum.contract.json');
    writeFileSync(join(dir, 'jtc.config.json'), '{\n  "contracts": ["contracts", "contractz"]\n}\n');
    client = await LanguageClient.start(dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it("is an error where it is written (jtc check stops on it), the configuration's folder is checked meanwhile, and the fix clears it", async () => {
    const config = join(dir, 'jtc.config.json');
    expect(jtc(['check'], dir)).toMatchObject({ code: 2, stderr: 'jtc: contractz: no such file or folder\n' });
    const [problem] = await client.waitFor(config, (list) => list.length === 1);
    expect(shown(problem!)).toEqual({ code: undefined, line: 2, column: 30, message: 'no such file or folder at /contracts/1 (jtc check and jtc build stop on it: create it, or correct the path)', severity: 1 });
    await client.waitForCodes(join(dir, 'contracts/JTC204-empty-enum.contract.json'), ['JTC204']);

    await client.open(config);
    writeFileSync(config, '{\n  "contracts": ["contracts"]\n}\n');
    await client.change(config, readFileSync(config, 'utf8'));
    await client.save(config);
    await client.waitFor(config, (list) => list.length === 0);
  });
});

describe('jtc lsp: the emit kind of jtc.config.json', () => {
  it('names in a hover on the tool name the module files jtc build writes with it', async () => {
    const dir = scratchWorkspace('fixtures/valid/math.add.contract.json');
    writeFileSync(join(dir, 'jtc.config.json'), JSON.stringify({ emit: 'js' }));
    const client = await LanguageClient.start(dir);
    const file = join(dir, 'contracts/math.add.contract.json');
    await client.open(file);
    const lines = readFileSync(file, 'utf8').split('\n');
    const line = lines.findIndex((text) => text.includes('"math.add"'));
    const hover = await client.hover(file, { line, character: lines[line]!.indexOf('math.add') });
    expect((hover!.contents as { value: string }).value).toContain('- module: `math.add.mjs` and `math.add.d.mts`');
    expect(await client.stop()).toBe(0);
  });
});

describe('jtc lsp: a jtc.config.json that is not a regular file', () => {
  let dir: string;
  let client: LanguageClient;
  let config: string;
  beforeAll(async () => {
    dir = scratchWorkspace('fixtures/warnings/JTC204-empty-enum.contract.json');
    config = join(dir, 'jtc.config.json');
    // A FIFO nobody writes to: a blocking read would wait forever.
    execFileSync('mkfifo', [config]);
    client = await LanguageClient.start(dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it('is an error on the file, never a hang or a read without end, and the contracts are checked meanwhile with the defaults', async () => {
    const contract = join(dir, 'contracts/JTC204-empty-enum.contract.json');
    const problemOn = async (kind: string): Promise<void> => {
      const [problem] = await client.waitFor(config, (list) => list.length === 1 && String(list[0]!.message).includes(kind));
      expect(problem!.message).toBe(`cannot read the project configuration: is a ${kind} where the project configuration belongs; move or remove it`);
      expect(problem!.range.start).toEqual({ line: 0, character: 0 });
      expect(jtc(['check'], dir)).toEqual({ code: 2, stdout: '', stderr: `jtc: jtc.config.json:1:1 - error: ${problem!.message}\n` });
    };
    await problemOn('FIFO');
    expect((await client.waitForCodes(contract, ['JTC204']))[0]!.severity).toBe(2);
    // A link to /dev/zero: an endless file, which a whole read would take into memory without bound.
    rmSync(config);
    symlinkSync('/dev/zero', config);
    await client.filesChanged([{ path: config, type: 'changed' }]);
    await problemOn('device');
    await client.open(contract);
    expect((await client.waitForCodes(contract, ['JTC204']))[0]!.severity).toBe(2);
  });
});
