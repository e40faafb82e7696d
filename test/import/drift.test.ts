import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContractSet } from '@json-tool-contracts/runtime';
import { mcpToolClientV1 } from '@json-tool-contracts/runtime/mcp/client';
import { compileContracts } from '../../src/compiler.js';
import { jtc } from '../cli/jtc-process.js';

/**
 * `jtc import <source> --check <dir>`: the server's tools as they are now against the committed
 * contracts, with jtc diff's classification, writing nothing.
 */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A copy of a server's committed contracts, edited: `edits` maps a file to a change of its parsed JSON (undefined removes the file). */
function committedCopy(server: string, edits: Record<string, ((contract: Contract) => void) | undefined> = {}, added: Record<string, unknown> = {}): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'jtc-drift-')), 'contracts');
  folders.push(join(dir, '..'));
  cpSync(`fixtures/import/${server}/contracts`, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(dir, file);
    if (edit === undefined) {
      rmSync(path);
      continue;
    }
    const contract = JSON.parse(readFileSync(path, 'utf8')) as Contract;
    edit(contract);
    writeFileSync(path, `${JSON.stringify(contract, null, 2)}\n`);
  }
  for (const [file, contract] of Object.entries(added)) writeFileSync(join(dir, file), JSON.stringify(contract, null, 2));
  return dir;
}

interface Schema {
  [keyword: string]: unknown;
  properties: Record<string, Schema>;
  items: Schema;
}
interface Contract {
  description: string;
  input: Schema;
  output: Schema;
}

const snapshot = (dir: string): Record<string, string> => Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));

describe('jtc import --check', () => {
  it('reports nothing but the summary when every committed contract matches, exit 0', () => {
    const run = jtc(['import', 'fixtures/import/server-everything/tools.json', '--check', 'fixtures/import/server-everything/contracts']);
    expect(run).toEqual({ code: 0, stdout: '13 tools: 13 unchanged, 0 drifted, 0 missing, 0 new, 0 unreadable; 0 breaking\n', stderr: '' });
  });

  it('reports each drifted, missing and new tool with the diff findings at their place in the committed contract, writes nothing, exit 1', () => {
    const dir = committedCopy(
      'server-everything',
      {
        // The server now requires b: it accepts less than we send.
        'get-sum.contract.json': (c) => void (c.input['required'] = ['a']),
        // The server dropped the bound we read by: its output accepts more.
        'get-structured-content.contract.json': (c) => void (c.output.properties['temperature']!['maximum'] = 60),
        // The server dropped a bound on what we send: compatible.
        'echo.contract.json': (c) => {
          c.input.properties['message']!['maxLength'] = 10;
          c.description = 'Echoes.';
        },
        // Written by hand: the server lists no output schema to compare it with.
        'get-env.contract.json': (c) => void (c.output = { type: 'object' } as unknown as Schema),
        'get-tiny-image.contract.json': undefined,
      },
      { 'gone.tool.contract.json': { name: 'gone.tool', description: 'Gone.', input: { type: 'object' }, output: {} } },
    );
    const before = snapshot(dir);
    const run = jtc(['import', 'fixtures/import/server-everything/tools.json', '--check', dir]);
    expect(run.stdout).toBe(
      [
        '"echo": drifted, compatible',
        `  ${dir}/echo.contract.json:8:18 - info JTC410: input: "maxLength" 10 was removed; the input accepts more at /input/properties/message (compatible: every call that worked still works)`,
        '  note: the description changed: "Echoes back the input string"',
        '"get-env": unchanged',
        '  note: the server lists no output schema for it: the committed output is not compared (a typed client checks every result against it)',
        '"get-structured-content": drifted, breaking',
        `  ${dir}/get-structured-content.contract.json:26:22 - error JTC402: output: "maximum" 60 was removed; the output accepts more, so code that reads it may meet values it never saw at /output/properties/temperature (breaking for us as consumers: import the tool again (jtc import -o) and handle the values it may now return)`,
        '"get-sum": drifted, breaking',
        `  ${dir}/get-sum.contract.json:4:12 - error JTC401: input: property "b" became required; the input accepts less, so calls that worked may now be denied at /input (breaking for us as callers: import the tool again (jtc import -o) and adapt the calls it now denies)`,
        '"get-tiny-image": new on the server',
        `  ${dir}/get-tiny-image.contract.json:2:11 - info JTC411: tool "get-tiny-image" is new at /name (compatible: nothing called it before)`,
        '"gone.tool": missing from the server',
        `  ${dir}/gone.tool.contract.json:2:11 - error JTC400: tool "gone.tool" was removed at /name (breaking for us as callers: the server no longer lists it; stop calling it, or find where it went)`,
        '14 tools: 9 unchanged, 3 drifted, 1 missing, 1 new, 0 unreadable; 3 breaking',
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(1);
    expect(snapshot(dir)).toEqual(before);

    const json = jtc(['import', 'fixtures/import/server-everything/tools.json', '--check', dir, '--format', 'json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { tools: { name: string; status: string; breaking: boolean; changes: { code: string }[] }[]; summary: unknown };
    expect(report.tools.filter((t) => t.status !== 'unchanged').map((t) => [t.name, t.status, t.breaking, t.changes.map((c) => c.code)])).toEqual([
      ['echo', 'drifted', false, ['JTC410']],
      ['get-structured-content', 'drifted', true, ['JTC402']],
      ['get-sum', 'drifted', true, ['JTC401']],
      ['get-tiny-image', 'new', false, ['JTC411']],
      ['gone.tool', 'missing', true, ['JTC400']],
    ]);
    expect(report.summary).toEqual({ tools: 14, unchanged: 9, drifted: 3, missing: 1, new: 1, unreadable: 0, duplicate: 0, breaking: 3 });
  });

  it('exits 0 when every change is compatible', () => {
    const dir = committedCopy('server-everything', { 'echo.contract.json': (c) => void (c.input.properties['message']!['maxLength'] = 10), 'get-sum.contract.json': undefined });
    const run = jtc(['import', 'fixtures/import/server-everything/tools.json', '--check', dir]);
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('13 tools: 11 unchanged, 1 drifted, 0 missing, 1 new, 0 unreadable; 0 breaking');
    expect(run.code).toBe(0);
  });

  it('matches a dotted contract name with the tool the server lists under its portable name, as the typed client calls it', () => {
    const dir = committedCopy('server-memory', { 'read_graph.contract.json': undefined }, { 'read.graph.contract.json': { ...JSON.parse(readFileSync('fixtures/import/server-memory/contracts/read_graph.contract.json', 'utf8')), name: 'read.graph' } });
    const run = jtc(['import', 'fixtures/import/server-memory/tools.json', '--check', dir]);
    expect(run).toMatchObject({ code: 0, stdout: '9 tools: 9 unchanged, 0 drifted, 0 missing, 0 new, 0 unreadable; 0 breaking\n' });
  });

  it('checks a live server over stdio: a committed tool the server now gives in a form the import refuses cannot be compared and breaks', () => {
    // server-filesystem's read_media_file has an anyOf in its output: a contract committed for it by hand cannot be held against the server's.
    const dir = committedCopy('server-filesystem', {}, { 'read_media_file.contract.json': { name: 'read_media_file', description: 'Reads a media file.', input: { type: 'object' }, output: {} } });
    const server = `"${process.execPath}" node_modules/@modelcontextprotocol/server-filesystem/dist/index.js fixtures/import`;
    const run = jtc(['import', '--stdio', server, '--check', dir]);
    expect(run.stdout).toMatch(/^"read_media_file": changed beyond what the import reads: cannot be compared\n {2}error JTC104: unsupported keyword "anyOf" at \/output\/properties\/content\/items\/anyOf/);
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('14 tools: 13 unchanged, 0 drifted, 0 missing, 0 new, 1 unreadable; 1 breaking');
    expect(run.code).toBe(1);
  });

  it('--unchecked-output: a tool committed with an unchecked output is compared as the import writes it, with the flag or without (the contract records it), and is unchanged', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'jtc-drift-')), 'contracts');
    folders.push(join(dir, '..'));
    expect(jtc(['import', 'fixtures/import/server-filesystem/tools.json', '-o', dir, '--unchecked-output']).code).toBe(0);
    const unchanged = { code: 0, stdout: '14 tools: 14 unchanged, 0 drifted, 0 missing, 0 new, 0 unreadable; 0 breaking\n' };
    expect(jtc(['import', 'fixtures/import/server-filesystem/tools.json', '--check', dir, '--unchecked-output'])).toMatchObject(unchanged);
    expect(jtc(['import', 'fixtures/import/server-filesystem/tools.json', '--check', dir])).toMatchObject(unchanged);
    // Only the tool committed so: another whose output the import refuses is still unreadable.
    const plain = committedCopy('server-filesystem', {}, { 'read_media_file.contract.json': { name: 'read_media_file', description: 'Reads a media file.', input: { type: 'object' }, output: {} } });
    expect(jtc(['import', 'fixtures/import/server-filesystem/tools.json', '--check', plain]).stdout).toContain('"read_media_file": changed beyond what the import reads: cannot be compared');
  });

  it("--unchecked-output: a server's output schema that changed outside the subset breaks nothing the contract checks, and a note says it changed", () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'jtc-drift-')), 'contracts');
    folders.push(join(dir, '..'));
    expect(jtc(['import', 'fixtures/import/server-filesystem/tools.json', '-o', dir, '--unchecked-output']).code).toBe(0);
    const listing = JSON.parse(readFileSync('fixtures/import/server-filesystem/tools.json', 'utf8')) as { tools: { name: string; outputSchema: { properties: Record<string, unknown> } }[] };
    listing.tools.find((tool) => tool.name === 'read_media_file')!.outputSchema.properties['size'] = { type: 'integer' };
    const changed = join(dir, '..', 'tools.json');
    writeFileSync(changed, JSON.stringify(listing));
    const run = jtc(['import', changed, '--check', dir]);
    expect(run.stdout).toContain('"read_media_file": unchanged\n  note: the server\'s output schema changed; it is still outside the subset, and the committed output checks nothing of it (--unchecked-output): import the tool again (jtc import -o --unchecked-output) to record the new schema\n');
    expect(run.code).toBe(0);
  });

  it('checks a live server over stdio against edited contracts of server-memory', () => {
    const dir = committedCopy('server-memory', { 'read_graph.contract.json': (c) => void (c.output.properties['entities']!.items.properties['observations']!['maxItems'] = 3) });
    const server = `"${process.execPath}" node_modules/@modelcontextprotocol/server-memory/dist/index.js`;
    const run = jtc(['import', '--stdio', server, '--check', dir]);
    expect(run.stdout).toContain(`"read_graph": drifted, breaking\n  ${dir}/read_graph.contract.json:`);
    expect(run.stdout).toContain('error JTC402: output: "maxItems" 3 was removed');
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('9 tools: 8 unchanged, 1 drifted, 0 missing, 0 new, 0 unreadable; 1 breaking');
    expect(run.code).toBe(1);
  });

  it('does not compare committed contracts with errors (exit 1), and refuses a wrong target (exit 2)', () => {
    const dir = committedCopy('server-memory', { 'read_graph.contract.json': (c) => void (c.input['pattern'] = 'x') });
    const broken = jtc(['import', 'fixtures/import/server-memory/tools.json', '--check', dir]);
    expect(broken.stdout).toContain(`${dir}/read_graph.contract.json:`);
    expect(broken.stdout).toContain('import --check: the committed contracts have errors; fix them to compare');
    expect(broken.code).toBe(1);

    expect(jtc(['import', 'fixtures/import/server-memory/tools.json', '--check', dir, '-o', dir])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^jtc: import: name where the contracts go: -o <dir> to write them, or --check <dir>/) });
    expect(jtc(['import', 'fixtures/import/server-memory/tools.json'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^jtc: import: name where the contracts go/) });
    expect(jtc(['import', 'fixtures/import/server-memory/tools.json', '--check', 'fixtures/import/servers.json'])).toMatchObject({ code: 2, stderr: 'jtc: --check fixtures/import/servers.json: not a folder; name the folder of the committed contracts\n' });
    // A folder with no contracts would report every tool new and pass: a mistyped path is an error.
    expect(jtc(['import', 'fixtures/import/server-memory/tools.json', '--check', 'fixtures/import/sources'])).toMatchObject({ code: 2, stderr: 'jtc: --check fixtures/import/sources: no *.contract.json in this folder; name the folder of the committed contracts\n' });
  });
});

describe('jtc import --check and the typed client agree on a renamed server', () => {
  // Committed when the server listed echo, a_b, c_e and x_y; x_y committed under the dotted name
  // x.y (the typed client reaches it by its portable name). Now the server lists "a b" and "c/e".
  const renamed = (version: 'before' | 'after'): string => `"${process.execPath}" fixtures/import/hostile/renamed-server.mjs ${version}`;

  it("a tool reachable only through the import's name mapping is missing for both (exit 1); the others are unchanged and callable", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'jtc-drift-')), 'contracts');
    folders.push(join(dir, '..'));
    expect(jtc(['import', '--stdio', renamed('before'), '-o', dir]).code).toBe(0);
    const xy = JSON.parse(readFileSync(join(dir, 'x_y.contract.json'), 'utf8')) as Record<string, unknown>;
    rmSync(join(dir, 'x_y.contract.json'));
    writeFileSync(join(dir, 'x.y.contract.json'), JSON.stringify({ ...xy, name: 'x.y' }, null, 2));

    const check = jtc(['import', '--stdio', renamed('after'), '--check', dir, '--format', 'json']);
    expect(check.code).toBe(1);
    const report = JSON.parse(check.stdout) as { tools: { name: string; status: string; breaking: boolean; notes: string[] }[] };
    expect(report.tools.map((tool) => [tool.name, tool.status, tool.breaking])).toEqual([
      ['a_b', 'missing', true],
      ['c_e', 'missing', true],
      ['echo', 'unchanged', false],
      ['x.y', 'unchanged', false],
    ]);
    expect(report.tools[0]!.notes).toEqual(['the server lists "a b", which jtc import writes as "a_b"; the typed client calls a tool by its contract name (or its portable name), so it cannot reach that one']);

    // The typed client, built from the same committed contracts, against the same server.
    const built = compileContracts(
      readdirSync(dir).map((file) => ({ file: join(dir, file), text: readFileSync(join(dir, file), 'utf8') })),
      { emit: 'js' },
    );
    expect(built.diagnostics).toEqual([]);
    const generated = join(dir, '..', 'generated');
    mkdirSync(generated);
    for (const file of built.files) writeFileSync(join(generated, file.path), file.text);
    const { contracts } = (await import(pathToFileURL(join(generated, 'index.mjs')).href)) as { contracts: ContractSet };
    const client = new Client({ name: 'drift-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['fixtures/import/hostile/renamed-server.mjs', 'after'], stderr: 'ignore' }));
    try {
      const tools = mcpToolClientV1(client, contracts);
      const outcome = async (name: string) => {
        const result = await tools.call(name as never, { text: 'hi' } as never);
        return result.ok ? ['ok', result.output] : [result.error.code];
      };
      expect(await outcome('echo')).toEqual(['ok', { said: 'echo: hi' }]);
      expect(await outcome('x.y')).toEqual(['ok', { said: 'x_y: hi' }]);
      expect(await outcome('a_b')).toEqual(['unknown_tool']);
      expect(await outcome('c_e')).toEqual(['unknown_tool']);
    } finally {
      await client.close();
    }
  }, 240_000);

  it('a new tool whose listed name the client cannot call says so', () => {
    const dir = committedCopy('server-memory');
    const source = join(dir, '..', 'tools.json');
    const list = JSON.parse(readFileSync('fixtures/import/server-memory/tools.json', 'utf8')) as { tools: { name: string }[] };
    writeFileSync(source, JSON.stringify({ tools: [...list.tools, { ...list.tools[0]!, name: 'open nodes' }] }));
    const run = jtc(['import', source, '--check', dir]);
    expect(run.stdout).toContain('"open_nodes": new on the server\n');
    expect(run.stdout).toContain('  note: the server lists it as "open nodes"; a contract imported for it is named "open_nodes", which the typed client cannot call (rename the tool on the server to keep one name)\n');
  });
});

describe('jtc import --check: a server that lists a tool twice', () => {
  it('is reported, breaking (exit 1), whether the tool was committed or is new; never unchanged', () => {
    const dir = committedCopy('server-memory');
    const source = join(dir, '..', 'tools.json');
    const list = JSON.parse(readFileSync('fixtures/import/server-memory/tools.json', 'utf8')) as { tools: { name: string; description: string }[] };
    const readGraph = list.tools.find((tool) => tool.name === 'read_graph')!;
    const extra = { ...list.tools[0]!, name: 'brand_new' };
    writeFileSync(source, JSON.stringify({ tools: [...list.tools, { ...readGraph, description: 'Another read_graph.' }, extra, extra] }));
    const run = jtc(['import', source, '--check', dir]);
    const at = list.tools.indexOf(readGraph) + 1;
    expect(run.stdout).toContain(`"read_graph": listed more than once by the server: cannot be compared\n  note: the server lists "read_graph" 2 times (tools ${at}, 10); which one a call reaches is up to the server, so it cannot be compared\n`);
    expect(run.stdout).toContain('"brand_new": listed more than once by the server: cannot be compared\n  note: the server lists "brand_new" 2 times (tools 11, 12)');
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('10 tools: 8 unchanged, 0 drifted, 0 missing, 0 new, 0 unreadable, 2 listed more than once; 2 breaking');
    expect(run.code).toBe(1);
  });
});
