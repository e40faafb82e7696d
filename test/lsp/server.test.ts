import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  FileChangeType,
  HoverRequest,
  type Diagnostic as LspDiagnostic,
} from 'vscode-languageserver-protocol/node';
import { recheckDelayMs } from '../../src/lsp/server.js';
import { keywordTable } from '../../src/subset/keywords/index.js';
import { LanguageClient, scratchWorkspace, uriOf } from './client.js';

/** What `jtc check --format json` reports, run in the workspace as a user would. */
function cliDiagnostics(cwd: string, args: string[]): { code: string; file: string; line: number; column: number; pointer: string; message: string; hint?: string }[] {
  const result = spawnSync(process.execPath, [resolve('bin/jtc.js'), 'check', '--format', 'json', ...args], { cwd, encoding: 'utf8' });
  return JSON.parse(result.stdout).diagnostics;
}

/** The text a published diagnostic underlines. */
function underlined(text: string, diagnostic: LspDiagnostic): string {
  const lines = text.split('\n');
  const { start, end } = diagnostic.range;
  return start.line === end.line ? lines[start.line]!.slice(start.character, end.character) : '';
}

const expectedOf = (folder: string): Record<string, { code: string; line: number; column: number }> => JSON.parse(readFileSync(join(folder, 'expected.json'), 'utf8'));

describe('jtc lsp: diagnostics of the files on disk', () => {
  let dir: string;
  let client: LanguageClient;
  beforeAll(async () => {
    dir = scratchWorkspace('fixtures/invalid', 'fixtures/warnings');
    client = await LanguageClient.start(dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it('publishes, for every file, exactly what jtc check prints: code, position, message, hint, and a link to the code', async () => {
    const cli = cliDiagnostics(dir, ['contracts']);
    const files = [...new Set(cli.map((d) => d.file))];
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const expected = cli.filter((d) => d.file === file);
      const published = await client.waitFor(join(dir, file), (list) => list.length === expected.length);
      expect(published.map((d) => ({ code: d.code, line: d.range.start.line + 1, column: d.range.start.character + 1, message: d.message }))).toEqual(
        expected.map((d) => ({ code: d.code, line: d.line, column: d.column, message: `${d.message}${d.pointer === '' ? '' : ` at ${d.pointer}`}${d.hint === undefined ? '' : ` (${d.hint})`}` })),
      );
      for (const diagnostic of published) {
        expect(diagnostic.source).toBe('jtc');
        expect(diagnostic.severity).toBe(diagnostic.code?.toString().startsWith('JTC2') ? 2 : 1);
        expect(diagnostic.codeDescription?.href).toBe(new URL('../../docs/diagnostics.md', import.meta.url).href);
      }
    }
  });

  it('underlines the token at the position: a key, a value, a comment, a comma', async () => {
    const cases = [
      ['contracts/invalid/JTC104-pattern.contract.json', '"^[a-z]+$"'],
      ['contracts/invalid/JTC101-comment.contract.json', '// tools are described here'],
      ['contracts/invalid/JTC102-trailing-comma.contract.json', ','],
      ['contracts/invalid/JTC122-bad-name.contract.json', '"math add"'],
      ['contracts/warnings/JTC201-min-length-on-integer.contract.json', '"minLength"'],
      ['contracts/invalid/JTC120-missing-output.contract.json', '{'],
    ] as const;
    for (const [file, text] of cases) {
      const [diagnostic] = await client.waitFor(join(dir, file), (list) => list.length > 0);
      expect(underlined(readFileSync(join(dir, file), 'utf8'), diagnostic!)).toBe(text);
    }
  });

  it('keeps the checks across files current when another file changes on disk, or is edited and closed unsaved', async () => {
    const first = join(dir, 'contracts/invalid/JTC124-duplicate-name/first.contract.json');
    const second = join(dir, 'contracts/invalid/JTC124-duplicate-name/second.contract.json');
    await client.waitForCodes(second, ['JTC124']);
    const original = readFileSync(first, 'utf8');
    writeFileSync(first, original.replace('"shared.name"', '"shared.first"'));
    await client.filesChanged([{ path: first, type: 'changed' }]);
    await client.waitForCodes(second, []);

    await client.open(first);
    await client.change(first, original);
    await client.waitForCodes(second, ['JTC124']);
    await client.close(first);
    await client.waitForCodes(second, []);

    renameSync(first, `${first}.moved`);
    await client.filesChanged([{ path: first, type: 'deleted' }]);
    writeFileSync(join(dir, 'contracts/third.contract.json'), original);
    await client.filesChanged([{ path: join(dir, 'contracts/third.contract.json'), type: 'created' }]);
    await client.waitForCodes(join(dir, 'contracts/third.contract.json'), ['JTC124']);
  });
});

describe('jtc lsp: an open document, edit by edit', () => {
  let dir: string;
  let client: LanguageClient;
  let file: string;
  let clean: string;
  beforeAll(async () => {
    dir = scratchWorkspace('fixtures/valid/math.add.contract.json');
    file = join(dir, 'contracts/math.add.contract.json');
    clean = readFileSync(file, 'utf8');
    client = await LanguageClient.start(dir);
    await client.open(file);
    await client.waitForCodes(file, []);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it('reports each code at its position after an edit, and nothing once the edit is undone', async () => {
    const fixtures = ['fixtures/invalid', 'fixtures/warnings'].flatMap((folder) =>
      Object.entries(expectedOf(folder))
        // Text an editor holds is decoded already (JTC105 is a file's bytes); the set codes need a second file.
        .filter(([name, expected]) => !name.includes('/') && expected.code !== 'JTC105')
        .map(([name, expected]) => ({ text: readFileSync(join(folder, name), 'utf8'), ...expected })),
    );
    expect(fixtures.length).toBeGreaterThan(28);
    for (const fixture of fixtures) {
      await client.change(file, fixture.text);
      const published = await client.waitFor(file, (list) => list.some((d) => d.code === fixture.code));
      expect(published.find((d) => d.code === fixture.code)!.range.start, fixture.code).toEqual({ line: fixture.line - 1, character: fixture.column - 1 });
      await client.change(file, clean);
      await client.waitForCodes(file, []);
    }
  });

  it('explains a keyword, a contract field, a tool name and a diagnostic code on hover', async () => {
    const text = '{\n  "name": "math.add",\n  "description": "Adds.",\n  "input": { "type": "object", "minLength": 2 },\n  "output": {}\n}\n';
    await client.change(file, text);
    await client.waitForCodes(file, ['JTC201']);
    const hoverText = async (line: number, character: number): Promise<string> => {
      const hover = await client.hover(file, { line, character });
      return hover === null ? '' : (hover.contents as { value: string }).value;
    };
    const minLength = keywordTable.get('minLength')!;
    const keyword = await hoverText(3, 35);
    expect(keyword).toContain('**`minLength`** (keyword) · for string values\n\nValue: a non-negative integer.\n\n');
    expect(keyword).toContain(minLength.editor.description);
    expect(keyword).toContain('**JTC201** (warning): keyword does not apply to the declared type.');
    expect(keyword).toContain('To fix: remove it, or change "type".');
    expect(await hoverText(3, 22)).toBe(`**\`type\`** (keyword) · for any value\n\nValue: one of "null", "boolean", "number", "integer", "string", "array", "object".\n\n${keywordTable.get('type')!.editor.description}`);
    expect(await hoverText(2, 5)).toMatch(/^\*\*`description`\*\* \(contract field\)\n\nValue: a string\.\n\nWhat the tool does/);
    expect(await hoverText(1, 14)).toBe('**tool `math.add`**\n\n- module: `math.add.ts`\n- types: `MathAddInput`, `MathAddOutput`\n- index export: `mathAdd`');
    expect(await hoverText(4, 0)).toBe('');
  });

  it('completes the keywords of the declared type, type names, contract fields, also while a key is half typed', async () => {
    const labels = async (text: string, marker = '|'): Promise<string[]> => {
      const at = text.indexOf(marker);
      const before = text.slice(0, at).split('\n');
      await client.change(file, text.replace(marker, ''));
      return (await client.completions(file, { line: before.length - 1, character: before.at(-1)!.length })).map((item) => item.label);
    };
    const annotations = ['$schema', '$id', 'title', 'description', 'enum', 'default', 'examples'];
    const contract = (input: string): string => `{\n  "name": "math.add",\n  "description": "Adds.",\n  "input": ${input},\n  "output": {}\n}\n`;
    expect(await labels(contract('{ "type": "string", "|" }'))).toEqual(['$schema', '$id', 'title', 'description', 'minLength', 'maxLength', 'enum', 'default', 'examples']);
    expect(await labels(contract('{ "type": "integer", "mi| }'))).toEqual(['$schema', '$id', 'title', 'description', 'minimum', 'maximum', 'enum', 'default', 'examples']);
    expect(await labels(contract('{ "type": "boolean", "title": "t", | }'))).toEqual(annotations.filter((name) => name !== 'title'));
    expect((await labels(contract('{ | }'))).length).toBe(keywordTable.size);
    expect(await labels(contract('{ "type": "|" }'))).toEqual(['"null"', '"boolean"', '"number"', '"integer"', '"string"', '"array"', '"object"']);
    expect(await labels(contract('{ "type": "object", "additionalProperties": | }'))).toEqual(['true', 'false']);
    expect(await labels(contract('{ "type": "object", "properties": { "a": { "type": "array", "|" } } }'))).toEqual(['$schema', '$id', 'title', 'description', 'items', 'minItems', 'maxItems', 'enum', 'default', 'examples']);
    expect(await labels('{\n  "name": "math.add",\n  "|"\n}\n')).toEqual(['$schema', 'description', 'input', 'output']);
    expect(await labels(contract('{ "enum": [{ "|" }] }'))).toEqual([]);

    await client.change(file, contract('{ "type": "string", "maxL" }'));
    const [maxLength] = (await client.completions(file, { line: 3, character: 36 })).filter((item) => item.label === 'maxLength');
    expect(maxLength?.textEdit).toEqual({ range: { start: { line: 3, character: 31 }, end: { line: 3, character: 37 } }, newText: '"maxLength": ' });
    expect(maxLength?.filterText).toBe('"maxLength"');
  });
});

describe('jtc lsp: quick fixes', () => {
  const fixable = ['fixtures/invalid/JTC101-comment.contract.json', 'fixtures/invalid/JTC102-trailing-comma.contract.json', ...readdirSync('fixtures/quick-fixes').map((name) => `fixtures/quick-fixes/${name}`)];
  let dir: string;
  let client: LanguageClient;
  beforeAll(async () => {
    dir = scratchWorkspace(...fixable, 'fixtures/invalid/JTC124-duplicate-name', 'fixtures/invalid/JTC125-type-name-collision');
    client = await LanguageClient.start(dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it.each([...fixable.map((path) => [path.split('/').pop()!] as const), ['JTC124-duplicate-name/second.contract.json'] as const, ['JTC125-type-name-collision/first.contract.json'] as const])('%s: one exact fix, and the document then checks clean', async (name) => {
    const file = join(dir, 'contracts', name);
    await client.open(file);
    const published = await client.waitFor(file, (list) => list.length === 1);
    const actions = await client.codeActions(file, published);
    expect(actions.map((action) => action.kind)).toEqual(['quickfix']);
    const edits = actions[0]!.edit!.changes![Object.keys(actions[0]!.edit!.changes!)[0]!]!;
    await client.applyEdits(file, edits);
    await client.waitForCodes(file, []);
    await client.close(file);
  });

  it('names the renamed tool after the first free name', async () => {
    const file = join(dir, 'contracts/JTC124-duplicate-name/second.contract.json');
    await client.open(file);
    const actions = await client.codeActions(file, await client.waitForCodes(file, ['JTC124']));
    expect(actions.map((action) => action.title)).toEqual(['rename the tool to "shared.name_2"']);
    await client.close(file);
  });
});

describe('jtc lsp: a file: URI that is not a path on this machine', () => {
  /** A host (a network share), an encoded slash, and a NUL: none names a local file. */
  const foreign = ['file://fileserver/share/remote.contract.json', 'file:///work/a%2Fb.contract.json', 'file:///work/nul%00.contract.json', 'file://fileserver/share/jtc.config.json'];
  let dir: string;
  let client: LanguageClient;
  beforeAll(async () => {
    dir = scratchWorkspace('fixtures/valid/math.add.contract.json');
    client = await LanguageClient.start(dir, ['file://fileserver/share']);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
  });

  it('is left alone, reported once each, and the server goes on checking the local contracts', async () => {
    const text = readFileSync('fixtures/invalid/JTC101-comment.contract.json', 'utf8');
    const { connection } = client;
    for (const uri of foreign) {
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'json', version: 1, text } });
      await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: `${text} ` }] });
      expect(await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 1 } })).toBeNull();
      expect(await connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 1 } })).toEqual([]);
      const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
      expect(await connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics: [{ range, message: 'x', code: 'JTC101', source: 'jtc', data: { pointer: '', hint: '' } }] } })).toEqual([]);
      await connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
      await connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri, type: FileChangeType.Changed }] });
      await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    }
    // Past the debounce of a re-check, the local contract is still served and checked.
    await new Promise((resolveWait) => setTimeout(resolveWait, 3 * recheckDelayMs));
    const local = join(dir, 'contracts/math.add.contract.json');
    await client.open(local, text);
    expect((await client.waitFor(local, (list) => list.length > 0)).map((d) => d.code)).toEqual(['JTC101']);
    for (const uri of [...foreign, 'file://fileserver/share']) expect(client.logMessages.filter((message) => message.startsWith(`jtc: ${uri} `)).length, uri).toBe(1);
    expect([...client.diagnostics.keys()].filter((uri) => !uri.startsWith(uriOf(dir)))).toEqual([]);
  });
});
