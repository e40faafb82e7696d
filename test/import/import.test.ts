import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createMcpHandler, Server as ServerV2 } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { serveToolsOnMcpServer } from '../../packages/runtime/src/mcp/server.js';
import { mcpHttpHandler, mcpNodeListener } from '../../packages/runtime/src/mcp/http/http-server.js';
import { CapabilityRuntime, parseJson, stringifyJson, ToolMetadata, ToolPolicy } from '../../packages/runtime/src/index.js';
import { importCommand } from '../../src/cli/import.js';
import { checkContract } from '../../src/contract/check-contract.js';
import { LineMap } from '../../src/source/parse.js';
import { compileContract } from '../support/load-module.js';

const scratch = (): string => mkdtempSync(join(tmpdir(), 'jtc-import-'));

/** Runs `jtc import` in process: its report, exit code and the files it wrote. */
async function importInto(args: readonly string[]) {
  let report = '';
  const context = { write: (text: string) => void (report += text), exitCode: 0 };
  const program = new Command('jtc').exitOverride();
  importCommand(program, context);
  await program.parseAsync(['import', ...args], { from: 'user' });
  const out = args[args.indexOf('-o') + 1]!;
  const files = existsSync(out) ? Object.fromEntries(readdirSync(out).map((name) => [name, readFileSync(join(out, name), 'utf8')])) : {};
  return { code: context.exitCode, report, files };
}

const sources = 'fixtures/import/sources';
const contractOf = (text: string | undefined): unknown => JSON.parse(text!);

/** The text at a report line's file:line:col. */
function textAt(line: string): string {
  const match = /^ {2}(.+?):(\d+):(\d+) - /.exec(line);
  if (match === null) throw new Error(`no place in: ${line}`);
  const text = readFileSync(match[1]!, 'utf8');
  return text.slice(new LineMap(text).offset(Number(match[2]), Number(match[3])));
}

describe('jtc import: sources', () => {
  it('reads OpenAI Chat definitions; a function without parameters gets the input {} and says so', async () => {
    const out = join(scratch(), 'contracts');
    const { code, report, files } = await importInto([`${sources}/openai-chat.json`, '-o', out]);
    expect(code).toBe(0);
    expect(Object.keys(files).sort()).toEqual(['get_weather.contract.json', 'ping.contract.json']);
    expect(contractOf(files['get_weather.contract.json'])).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city.',
      input: { type: 'object', properties: { city: { type: 'string', maxLength: 80 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'unit'], additionalProperties: false },
      output: {},
    });
    expect(contractOf(files['ping.contract.json'])).toMatchObject({ input: {}, output: {} });
    expect(report).toContain(`${out}/ping.contract.json:4:12 - note: the source gives no input schema ("function.parameters"); the input accepts any JSON value ({}) at /input`);
    expect(report.trimEnd().split('\n').pop()).toBe('2 tools: 2 imported (0 rewritten), 0 refused');
  });

  it('reads OpenAI Responses request bodies, Anthropic definitions and JSON-RPC tools/list responses', async () => {
    const responses = await importInto([`${sources}/openai-responses.json`, '-o', join(scratch(), 'a')]);
    expect(contractOf(responses.files['get_weather.contract.json'])).toMatchObject({ input: { properties: { city: { type: 'string' } }, required: ['city'] } });
    const anthropic = await importInto([`${sources}/anthropic.json`, '-o', join(scratch(), 'b')]);
    expect(contractOf(anthropic.files['get_weather.contract.json'])).toMatchObject({ input: { properties: { days: { type: 'integer', minimum: 1, maximum: 14 } } } });
    const rpc = await importInto([`${sources}/jsonrpc-response.json`, '-o', join(scratch(), 'c')]);
    expect(contractOf(rpc.files['notes.search.contract.json'])).toMatchObject({ name: 'notes.search', output: { properties: { hits: { type: 'integer', minimum: 0 } }, required: ['hits'] } });
    expect(rpc.report).not.toContain('note:');
  });

  it('reads Gemini declarations with parameters (upper-case types, said) or parametersJsonSchema, and their responses', async () => {
    const { code, report, files } = await importInto([`${sources}/gemini.json`, '-o', join(scratch(), 'g')]);
    expect(code).toBe(0);
    expect(contractOf(files['get_weather.contract.json'])).toMatchObject({ input: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } } }, output: { type: 'object', properties: { celsius: { type: 'number' } } } });
    expect(contractOf(files['set_alarm.contract.json'])).toMatchObject({ input: { properties: { at: { type: 'string', description: 'format: time' } } }, output: { required: ['id'] } });
    expect(report).toContain('note: Gemini "parameters" names types in upper case; they are written in lower case, as JSON Schema names them');
  });

  it('takes the format named with --from, and says when it cannot tell or the formats mix', async () => {
    const out = join(scratch(), 'x');
    const named = await importInto([`${sources}/anthropic.json`, '--from', 'anthropic', '-o', out]);
    expect(named.code).toBe(0);
    const dir = scratch();
    writeFileSync(
      join(dir, 'mixed.json'),
      JSON.stringify([
        { name: 'a', input_schema: {} },
        { name: 'b', inputSchema: {} },
      ]),
    );
    await expect(importInto([join(dir, 'mixed.json'), '-o', out])).rejects.toThrow('the tool definitions mix formats (anthropic, mcp); import them apart, or name it with --from');
    writeFileSync(join(dir, 'unknown.json'), JSON.stringify([{ name: 'a' }]));
    await expect(importInto([join(dir, 'unknown.json'), '-o', out])).rejects.toThrow('cannot tell the format of the tool definitions');
    writeFileSync(join(dir, 'duplicate.json'), '{"tools": [], "tools": []}');
    await expect(importInto([join(dir, 'duplicate.json'), '-o', out])).rejects.toThrow(/duplicate\.json:1:15: duplicate key "tools"/);
  });
});

describe('jtc import: rewrites and refusals', () => {
  const fixture = `${sources}/rewrites-and-refusals.tools.json`;

  it('applies every exact rewrite, each reported where its result stands in the written file', async () => {
    const out = join(scratch(), 'contracts');
    const { report, files } = await importInto([fixture, '-o', out]);
    const text = files['rewrites.contract.json']!;
    expect(checkContract(text, 'rewrites.contract.json').diagnostics).toEqual([]);
    expect(contractOf(text)).toMatchObject({
      input: {
        type: 'object',
        properties: {
          count: { type: 'integer', minimum: 1, maximum: 99 },
          mode: { enum: ['fast'] },
          site: { type: 'string', description: 'Where to look. (format: uri) (deprecated)' },
          owner: { type: 'object', properties: { name: { type: 'string' } } },
          extra: { type: 'object', additionalProperties: true },
        },
      },
    });
    expect((contractOf(text) as { input: object }).input).not.toHaveProperty('$defs');
    const rewrites = report.split('\n').filter((line) => line.includes(' - rewrite: '));
    const at = Object.fromEntries(rewrites.map((line) => [/ at (\S+)$/.exec(line)![1]!, textAt(line)]));
    expect(at['/input/type']).toMatch(/^"object"/);
    expect(at['/input/properties/count/minimum']).toMatch(/^1,/);
    expect(at['/input/properties/count/maximum']).toMatch(/^99\n/);
    expect(at['/input/properties/mode/enum']).toMatch(/^\["fast"\]/);
    expect(at['/input/properties/site/description']).toMatch(/^"Where to look\. \(format: uri\) \(deprecated\)"/);
    expect(at['/input/properties/owner']).toMatch(/^\{\n\s+"type": "object"/);
    expect(at['/input/properties/extra/additionalProperties']).toMatch(/^true/);
    expect(at['/input']).toMatch(/^\{\n\s+"\$schema"/);
    expect(rewrites).toHaveLength(9);
    expect(report).toContain(`"rewrites": imported as ${out}/rewrites.contract.json, 9 rewrites`);
  });

  it('refuses every other tool with the keyword, its pointer, the hint and its place in the source; nothing half-converted is written', async () => {
    const out = join(scratch(), 'contracts');
    const { code, report, files } = await importInto([fixture, '-o', out]);
    expect(code).toBe(1);
    expect(Object.keys(files).sort()).toEqual(['get_weather.contract.json', 'rewrites.contract.json']);
    const errors = report.split('\n').filter((line) => line.includes(' - error '));
    const refusal = (pointer: string): string => errors.find((line) => line.includes(` at ${pointer} `))!;
    expect(refusal('/input/properties/note/anyOf')).toContain('error JTC104: unsupported keyword "anyOf" at /input/properties/note/anyOf (composition is outside the subset');
    expect(textAt(refusal('/input/properties/note/anyOf'))).toMatch(/^\[\{ "type": "string" \}/);
    expect(textAt(refusal('/input/properties/id/pattern'))).toMatch(/^"\^\[a-z\]\+\$"/);
    expect(textAt(refusal('/input/properties/root/$ref'))).toMatch(/^"#\/\$defs\/node"/);
    expect(textAt(refusal('/input/properties/ratio/exclusiveMinimum'))).toMatch(/^0 \}/);
    expect(refusal('/input/properties/flag/type')).toContain('error JTC110');
    expect(textAt(refusal('/input/properties/flag/type'))).toMatch(/^\["boolean", "string"\]/);
    expect(textAt(refusal('/input/additionalProperties'))).toMatch(/^\{ "type": "string" \}/);
    expect(textAt(refusal('/input/propertyNames'))).toMatch(/^\{ "maxLength": 8 \}/);
    expect(report).toContain('"no_description": refused\n');
    expect(report).toContain('note: the source gives the tool no description, and a contract needs one at /description');
    expect(report).toContain('tool 11: refused\n');
    expect(report).toMatch(/rewrites-and-refusals\.tools\.json:66:5 - error JTC500: the definition has no "name" string/);
    expect(report.trimEnd().split('\n').pop()).toBe('11 tools: 2 imported (1 rewritten), 9 refused');
  });

  it('maps a name outside the rules and says so; a later tool that meets a name already taken is refused, never dropped', async () => {
    const out = join(scratch(), 'contracts');
    const { report, files } = await importInto([fixture, '-o', out]);
    expect(contractOf(files['get_weather.contract.json'])).toMatchObject({ name: 'get_weather', description: 'A name outside the rules.' });
    expect(report).toContain(`"get weather" (as get_weather): imported as ${out}/get_weather.contract.json\n  ${out}/get_weather.contract.json:2:11 - note: the source names the tool "get weather", which must be dot-separated segments`);
    expect(report).toContain('"get_weather": refused\n  error JTC124: tool name "get_weather" is also used by tool 9 ("get weather") at /name');
  });

  it('writes the same bytes every time, and prints the same report', async () => {
    const [first, second] = [await importInto([fixture, '-o', join(scratch(), 'a')]), await importInto([fixture, '-o', join(scratch(), 'a')])];
    expect(second.files).toEqual(first.files);
    expect(second.report.replaceAll(/\/tmp\/jtc-import-\w+/g, '')).toEqual(first.report.replaceAll(/\/tmp\/jtc-import-\w+/g, ''));
    const json = await importInto([fixture, '-o', join(scratch(), 'b'), '--format', 'json']);
    expect(JSON.parse(json.report).summary).toEqual({ tools: 11, imported: 2, rewritten: 1, refused: 9 });
  });

  it('a failed import leaves the previous output as it was, and no temporary file', async () => {
    const out = join(scratch(), 'contracts');
    const before = (await importInto([`${sources}/openai-chat.json`, '-o', out])).files;
    writeFileSync(join(out, 'get_weather.contract.json'), `${before['get_weather.contract.json']!.trimEnd()} \n`);
    const edited = readFileSync(join(out, 'get_weather.contract.json'), 'utf8');
    // A folder where one contract belongs: stopped before anything is written.
    rmSync(join(out, 'ping.contract.json'));
    mkdirSync(join(out, 'ping.contract.json'));
    await expect(importInto([`${sources}/openai-chat.json`, '-o', out])).rejects.toThrow('ping.contract.json: is not a regular file where a contract belongs');
    expect(readFileSync(join(out, 'get_weather.contract.json'), 'utf8')).toBe(edited);
    // A folder that cannot be written: the temporary files go, the contracts stay.
    rmSync(join(out, 'ping.contract.json'), { recursive: true });
    if (process.getuid?.() !== 0) {
      chmodSync(out, 0o500);
      await expect(importInto([`${sources}/openai-chat.json`, '-o', out])).rejects.toThrow('permission denied');
      chmodSync(out, 0o700);
      expect(readFileSync(join(out, 'get_weather.contract.json'), 'utf8')).toBe(edited);
    }
    expect(readdirSync(out).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // A source that cannot be read writes nothing at all.
    const fresh = join(scratch(), 'never');
    await expect(importInto(['no/such/tools.json', '-o', fresh])).rejects.toThrow('no/such/tools.json: no such file or folder');
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('jtc import --unchecked-output', () => {
  it("imports a tool whose output alone is outside the subset with an unchecked output, the source's schema kept in its description and a warning in the report", async () => {
    const out = join(scratch(), 'contracts');
    const without = await importInto(['fixtures/import/server-filesystem/tools.json', '-o', join(scratch(), 'plain')]);
    expect(without.code).toBe(1);
    expect(without.files).not.toHaveProperty(['read_media_file.contract.json']);

    const { code, report, files } = await importInto(['fixtures/import/server-filesystem/tools.json', '-o', out, '--unchecked-output']);
    expect(code).toBe(0);
    expect(report.trimEnd().split('\n').pop()).toBe('14 tools: 14 imported (0 rewritten), 0 refused');
    const contract = contractOf(files['read_media_file.contract.json']) as { output: { description: string } };
    expect(Object.keys(contract.output)).toEqual(['description']);
    const listed = (JSON.parse(readFileSync('fixtures/import/server-filesystem/tools.json', 'utf8')) as { tools: { name: string; outputSchema: unknown }[] }).tools.find((tool) => tool.name === 'read_media_file')!;
    expect(JSON.parse(contract.output.description.slice(contract.output.description.indexOf('(compact, keys sorted): ') + '(compact, keys sorted): '.length))).toEqual(listed.outputSchema);
    const warning = report.split('\n').find((line) => line.includes('warning JTC550: the output schema is outside the subset'))!;
    expect(warning).toContain('(JTC104 at /output/properties/content/items/anyOf); imported as any JSON value, unchecked (--unchecked-output)');
    expect(textAt(warning)).toMatch(/^\{\n\s+"description": "Not checked: /);
    // The other tools are written exactly as without the flag.
    for (const [file, text] of Object.entries(without.files)) expect(files[file]).toBe(text);
  });

  it('still refuses a tool whose input is outside the subset', async () => {
    const { report } = await importInto([`${sources}/rewrites-and-refusals.tools.json`, '-o', join(scratch(), 'contracts'), '--unchecked-output']);
    expect(report.trimEnd().split('\n').pop()).toBe('11 tools: 2 imported (1 rewritten), 9 refused');
  });
});

describe('fixtures/import/findings: a source for each code of jtc import', () => {
  const expected = JSON.parse(readFileSync('fixtures/import/findings/expected.json', 'utf8')) as Record<string, { code: string; line: number; column: number; pointer: string; flags?: string[] }>;

  it.each(Object.entries(expected))('%s yields exactly its code, at its place', async (file, { flags = [], ...want }) => {
    const out = join(scratch(), 'contracts');
    const { report } = await importInto([`fixtures/import/findings/${file}`, '-o', out, '--format', 'json', ...flags]);
    const findings = (JSON.parse(report) as { tools: { findings: { code?: string; file?: string; line: number; column: number; pointer: string }[] }[] }).tools.flatMap((tool) => tool.findings);
    const coded = findings.filter((finding) => finding.code !== undefined);
    expect(coded.map(({ code, line, column, pointer }) => ({ code, line, column, pointer }))).toEqual([want]);
    // A refusal stands in the source; a warning on an imported tool, in the contract written for it.
    expect(coded[0]!.file).toBe(want.code.startsWith('JTC50') ? `fixtures/import/findings/${file}` : `${out}/read_media.contract.json`);
  });
});

describe('jtc import: the corpus of MCP servers from npm (fixtures/import)', () => {
  const servers = JSON.parse(readFileSync('fixtures/import/servers.json', 'utf8')) as { name: string; command: string }[];

  it.each(servers.map((s) => s.name))('%s: the harvested tools/list imports to the committed contracts and report', async (name) => {
    const dir = `fixtures/import/${name}`;
    const out = join(scratch(), 'contracts');
    const { report, files } = await importInto([`${dir}/tools.json`, '-o', out]);
    const expected = existsSync(`${dir}/contracts`) ? Object.fromEntries(readdirSync(`${dir}/contracts`).map((file) => [file, readFileSync(`${dir}/contracts/${file}`, 'utf8')])) : {};
    expect(files).toEqual(expected);
    expect(report.replaceAll(out, `${dir}/contracts`)).toBe(readFileSync(`${dir}/report.txt`, 'utf8'));
  });

  it.each(servers)(
    '$name: the live server over stdio lists what was harvested, and imports the same',
    async ({ name, command }) => {
      const out = join(scratch(), 'contracts');
      const live = await importInto(['--stdio', command, '-o', out, '--timeout', '240']);
      const fromFile = await importInto([`fixtures/import/${name}/tools.json`, '-o', join(scratch(), 'contracts')]);
      expect(live.files).toEqual(fromFile.files);
      expect(live.code).toBe(fromFile.code);
    },
    600_000,
  );
});

describe('jtc import: the command', () => {
  const bin = resolve('bin/jtc.js');
  const jtc = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

  it('exits 1 when a tool is refused, 2 with a jtc: message for usage and source errors', () => {
    const out = join(scratch(), 'contracts');
    expect(jtc(['import', `${sources}/rewrites-and-refusals.tools.json`, '-o', out]).status).toBe(1);
    expect(jtc(['import', `${sources}/openai-chat.json`, '-o', out]).status).toBe(0);
    const none = jtc(['import', '-o', out]);
    expect([none.status, none.stderr]).toEqual([2, 'jtc: import: name one source: a file, --stdio "<command>" or --url <endpoint> (jtc import --help)\n']);
    const dead = jtc(['import', '--stdio', `"${process.execPath}" -e "process.stderr.write('boom'); process.exit(3)"`, '-o', out]);
    expect(dead.status).toBe(2);
    expect(dead.stderr).toMatch(/^jtc: server ".*" exited with code 3 before it answered; it said: boom\n$/);
    expect(jtc(['import', '--url', 'ftp://127.0.0.1/', '-o', out]).stderr).toBe('jtc: --url: takes an http or https URL, not ftp:\n');
  }, 120_000);

  it('--timeout takes decimal seconds, rounded up to the millisecond, up to what a timer can wait; anything else is a usage error', () => {
    const out = join(scratch(), 'contracts');
    // A server that never answers: the smallest timeout (0.0001 s is 1 ms) fires, and says so.
    const silent = `"${process.execPath}" -e "setInterval(() => {}, 1000)"`;
    const tiny = jtc(['import', '--stdio', silent, '-o', out, '--timeout', '0.0001']);
    expect([tiny.status, tiny.stderr]).toEqual([2, expect.stringMatching(/^jtc: server ".*": no answer to initialize within 0\.001 s \(raise --timeout if it starts slowly\)\n$/)]);
    for (const value of ['0', '-1', '1e3', '0x10', 'ten', '2147484', '99999999999']) {
      const run = jtc(['import', `${sources}/openai-chat.json`, '-o', out, '--timeout', value]);
      expect([run.status, run.stderr]).toEqual([2, `jtc: --timeout takes a number of seconds above 0 and at most 2147483 (about 24 days), not "${value}"\n`]);
    }
    expect(jtc(['import', `${sources}/openai-chat.json`, '-o', out, '--timeout', '2147483.647']).status).toBe(0);
  }, 120_000);

  it('refuses a tool list that is not UTF-8 (UTF-16 said as such), writing nothing', () => {
    const dir = scratch();
    const text = readFileSync(`${sources}/openai-chat.json`, 'utf8');
    writeFileSync(join(dir, 'latin1.json'), Buffer.from(text.replace('Current weather', 'Current weather in Z\u00fcrich'), 'latin1'));
    writeFileSync(join(dir, 'utf16.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const out = join(dir, 'contracts');
    const latin1 = jtc(['import', join(dir, 'latin1.json'), '-o', out]);
    expect([latin1.status, latin1.stderr]).toEqual([2, `jtc: ${join(dir, 'latin1.json')}: invalid UTF-8 byte 0xfc at byte offset ${Buffer.byteLength(text.slice(0, text.indexOf('Current weather'))) + 'Current weather in Z'.length}; save the tool list as UTF-8\n`]);
    const utf16 = jtc(['import', join(dir, 'utf16.json'), '-o', out]);
    expect([utf16.status, utf16.stderr]).toEqual([2, `jtc: ${join(dir, 'utf16.json')}: invalid UTF-8 byte 0xff at byte offset 0 (it looks like UTF-16); save the tool list as UTF-8\n`]);
    expect(existsSync(out)).toBe(false);
  });
});

describe("jtc import --url of the runtime's own exact-mode server", () => {
  const fixture = 'packages/runtime/test/fixtures/money.transfer.contract.json';
  const money = compileContract(readFileSync(fixture, 'utf8'), 'money.transfer.contract.json', { exactNumbers: true });
  const runtime = new CapabilityRuntime();
  runtime.registerValidatedJsonTool(ToolPolicy.json('money.transfer'), ToolMetadata.of(money.description), money as never, () => ({ account: 0, fee: 0 }));
  const schemasOf = (text: string) => {
    const { input, output } = parseJson(text, { exactNumbers: true }) as { input: unknown; output: unknown };
    return { input: stringifyJson(input), output: stringifyJson(output) };
  };
  const servers = {
    // Writes the JSON text itself: the listing carries every digit of the contract's bounds.
    mcpHttpHandler: () => mcpHttpHandler(runtime, { serverInfo: { name: 'bank', version: '1' } }),
    // SDK v2 writes the listing with JSON.stringify: each bound as the double a host is shown.
    'SDK v2 (createMcpHandler)': () =>
      createMcpHandler(() => {
        const server = new ServerV2({ name: 'bank', version: '1' }, { capabilities: {}, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] });
        serveToolsOnMcpServer(server, runtime);
        return server;
      }),
  };
  const expected = {
    mcpHttpHandler: schemasOf(readFileSync(fixture, 'utf8')),
    'SDK v2 (createMcpHandler)': {
      input: '{"type":"object","properties":{"account":{"type":"integer","minimum":0,"maximum":18446744073709550000},"amount":{"type":"number","minimum":0,"maximum":0.3}},"required":["account","amount"],"additionalProperties":false}',
      output: '{"type":"object","properties":{"account":{"type":"integer","minimum":0,"maximum":18446744073709552000},"fee":{"type":"number","minimum":0,"maximum":0.1}},"required":["account","fee"],"additionalProperties":false}',
    },
  };

  it.each(Object.keys(servers) as (keyof typeof servers)[])('%s: the contract written passes jtc check --exact-numbers and keeps the bounds the wire carried', async (name) => {
    const listener = createServer(mcpNodeListener(servers[name]()));
    await new Promise<void>((ready) => listener.listen(0, '127.0.0.1', ready));
    try {
      const out = join(scratch(), 'contracts');
      const { code, files } = await importInto(['--url', `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`, '-o', out]);
      expect(code).toBe(0);
      expect(schemasOf(files['money.transfer.contract.json']!)).toEqual(expected[name]);
      const check = spawnSync(process.execPath, [resolve('bin/jtc.js'), 'check', '--exact-numbers', out], { encoding: 'utf8' });
      expect([check.status, check.stdout]).toEqual([0, '1 contract: 0 errors, 0 warnings\n']);
    } finally {
      listener.closeAllConnections();
      await new Promise((closed) => listener.close(closed));
    }
  });
});
