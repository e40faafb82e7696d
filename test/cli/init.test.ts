import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { version } from '../../src/version.js';
import { otlpReceiver, type OtlpExport, type OtlpReceiver } from '../support/otlp-receiver.js';
import { packedPackages } from '../support/packed-packages.js';

/** Runs the built CLI (`npm test` builds it first), exactly as a user would. */
const bin = resolve('bin/jtc.js');
function jtc(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const filesUnder = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true, withFileTypes: true }) as { isFile(): boolean; parentPath: string; name: string }[])
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();

const projectFiles = ['.gitignore', '.vscode/settings.json', 'contracts/text.count_words.contract.json', 'package.json', 'src/generated/index.ts', 'src/generated/text.count_words.ts', 'src/handlers.test.ts', 'src/handlers.ts', 'tsconfig.json'];

describe('jtc init', () => {
  const openTelemetry = ['@opentelemetry/api', '@opentelemetry/exporter-metrics-otlp-http', '@opentelemetry/exporter-metrics-otlp-proto', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/exporter-trace-otlp-proto', '@opentelemetry/resources', '@opentelemetry/sdk-metrics', '@opentelemetry/sdk-trace-node'];
  it.each([
    ['mcp', ['src/server.ts', 'src/telemetry.ts'], ['@modelcontextprotocol/sdk', ...openTelemetry]],
    ['ai-sdk', ['src/agent.ts'], ['ai']],
  ])('--template %s writes the project and says the next three commands', (template, entries, sdks) => {
    const dir = join(mkdtempSync(join(tmpdir(), 'jtc-init-')), 'My Tools');
    const result = jtc(['init', dir, '--template', template], tmpdir());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(filesUnder(dir)).toEqual([...projectFiles, ...entries].sort());
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(manifest.name).toBe('my-tools');
    expect(manifest.scripts).toMatchObject({ contracts: 'jtc build contracts -o src/generated', 'contracts:check': 'jtc check contracts -o src/generated' });
    expect(Object.keys(manifest.dependencies)).toEqual(['@json-tool-contracts/runtime', ...sdks]);
    expect(Object.keys(manifest.devDependencies)).toContain('json-tool-contracts');
    expect(result.stdout).toMatch(/\n {2}cd '[^'\n]*\/My Tools' && npm install\n {2}npm test /);
    expect(result.stdout).toMatch(/\n {2}npm start /);
    // The editor schema the settings point at is the one the compiler package ships.
    const settings = JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8')) as { 'json.schemas': { fileMatch: string[]; url: string }[] };
    expect(settings['json.schemas']).toEqual([{ fileMatch: ['*.contract.json'], url: './node_modules/json-tool-contracts/schema/contract.schema.json' }]);
    // What init generated is what `jtc build` would: the drift check passes before any build.
    expect(jtc(['check', 'contracts', '-o', 'src/generated'], dir).code).toBe(0);
  });

  it('refuses to overwrite anything: lists every file in the way, exits 2 and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-init-'));
    writeFileSync(join(dir, 'package.json'), '{"name":"mine"}');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'handlers.ts'), '// mine');
    writeFileSync(join(dir, 'contracts'), 'a file where a folder goes');
    const result = jtc(['init'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^jtc: init: contracts, package\.json, src\/handlers\.ts already exist in .*; nothing was written/);
    expect(result.stdout).toBe('');
    expect(filesUnder(dir)).toEqual(['contracts', 'package.json', 'src/handlers.ts']);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe('{"name":"mine"}');
  });

  it('writes the whole project or nothing: after an I/O error half-way nothing is left, and it runs again', () => {
    const parent = mkdtempSync(join(tmpdir(), 'jtc-init-'));
    // A file-size limit of 4 KiB (ulimit -f counts 512-byte blocks): the small files are written,
    // then the generated module (about 15 kB) fails with EFBIG, half-way through the project.
    const limited = (dir: string) => spawnSync('sh', ['-c', 'ulimit -f 8 && exec "$0" "$@"', process.execPath, bin, 'init', dir], { cwd: parent, encoding: 'utf8' });
    const failed = limited('new');
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/^jtc: init: \S+: EFBIG: file too large, write; nothing was written\n$/);
    expect(failed.status).toBe(2);
    // The folder init made is gone; a folder that was there is left as it was, empty.
    expect(readdirSync(parent)).toEqual([]);
    mkdirSync(join(parent, 'existing'));
    expect(limited('existing').status).toBe(2);
    expect(readdirSync(parent)).toEqual(['existing']);
    expect(filesUnder(join(parent, 'existing'))).toEqual([]);
    expect(readdirSync(join(parent, 'existing'))).toEqual([]);
    // Run again without the limit, it writes the whole project, which passes its drift check.
    const again = jtc(['init', 'existing'], parent);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(filesUnder(join(parent, 'existing'))).toEqual([...projectFiles, 'src/server.ts', 'src/telemetry.ts'].sort());
    expect(jtc(['check', 'contracts', '-o', 'src/generated'], join(parent, 'existing')).code).toBe(0);
  });

  it('refuses an unknown template and a second folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-init-'));
    expect(jtc(['init', '--template', 'express'], dir)).toMatchObject({ code: 2, stderr: "jtc: option '--template <name>' argument 'express' is invalid. Allowed choices are mcp, ai-sdk.\n" });
    expect(jtc(['init', 'a', 'b'], dir)).toMatchObject({ code: 2, stderr: "jtc: too many arguments for 'init'. Expected 1 argument but got 2.\n" });
    // --local names a folder holding both tarballs of this version.
    mkdirSync(join(dir, 'packs'));
    writeFileSync(join(dir, 'packs', `json-tool-contracts-runtime-${version}.tgz`), '');
    expect(jtc(['init', 'tools', '--local', 'packs'], dir)).toEqual({ code: 2, stdout: '', stderr: `jtc: init: --local packs: no json-tool-contracts-${version}.tgz there (npm run pack:local in a clone of json-tool-contracts ${version} packs both packages into packs/)\n` });
    expect(readdirSync(dir)).toEqual(['packs']);
  });
});

/**
 * The project as a user of a clone gets it before our packages are published: the two tarballs
 * `npm run pack:local` packs, `jtc init --local <their folder>` in an empty folder, its plain `npm
 * install` offline (our packages from the tarballs it names), then the project's own `npm test`, and its entry point: the MCP server answers
 * tools/list over stdio; the AI SDK loop calls the tool offline. The other packages it names
 * (TypeScript, @types/node, the SDK) are this repository's own, linked in before the install as
 * test/package.test.ts does for the peers: npm keeps what satisfies the manifest, so no registry
 * is asked.
 */
describe('a project from jtc init', () => {
  const root = process.cwd();
  const work = mkdtempSync(join(tmpdir(), 'jtc-init-project-'));
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_loglevel: 'error' };
  const run = (command: string, args: string[], cwd: string): string => {
    const result = spawnSync(command, args, { cwd, encoding: 'utf8', env });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    return result.stdout;
  };
  /** npm, tsc and node processes on a busy machine: room for one many times slower than a quiet one. */
  const processTimeout = 900_000;
  let tarballs: string[] = [];
  let compilerFiles: string[] = [];

  beforeAll(() => {
    // Packed by scripts/pack-local.js, as `npm run pack:local` packs them in a clone.
    const { runtime, compiler } = packedPackages();
    tarballs = [runtime.tarball, compiler.tarball];
    compilerFiles = compiler.files.map((file) => file.path);
  }, processTimeout);

  it('ships every template file in the compiler package', () => {
    const templates = filesUnder(join(root, 'templates', 'init')).map((file) => `templates/init/${file}`);
    expect(templates).toContain('templates/init/common/.vscode/settings.json');
    expect(compilerFiles).toEqual(expect.arrayContaining(templates));
  });

  const project = (template: string): string => {
    const dir = join(work, template);
    mkdirSync(dir);
    // The clone's path: our packages from the packed tarballs, named in package.json as file: dependencies.
    expect(jtc(['init', '--template', template, '--local', dirname(tarballs[0]!)], dir)).toMatchObject({ code: 0, stderr: '' });
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const [runtimeTarball, compilerTarball] = tarballs.map((tarball) => `file:${relative(dir, tarball).split(sep).join('/')}`);
    expect(manifest.dependencies['@json-tool-contracts/runtime']).toBe(runtimeTarball);
    expect(manifest.devDependencies['json-tool-contracts']).toBe(compilerTarball);
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !name.includes('json-tool-contracts'))) {
      mkdirSync(join(dir, 'node_modules', name, '..'), { recursive: true });
      symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
    }
    // --offline: no registry is asked for anything, ours least of all; the lockfile takes them from the tarballs.
    run('npm', ['install', '--offline'], dir);
    const locked = (JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string; version?: string }> }).packages;
    expect(locked['node_modules/@json-tool-contracts/runtime']).toMatchObject({ resolved: runtimeTarball, version });
    expect(locked['node_modules/json-tool-contracts']).toMatchObject({ resolved: compilerTarball, version });
    const test = run('npm', ['test'], dir);
    expect(test).toMatch(/# pass 2\n# fail 0/);
    return dir;
  };

  /** The mcp project, made once for the tests that run its server. */
  let mcpDir: string | undefined;
  const mcpProject = (): string => (mcpDir ??= project('mcp'));

  it(
    'mcp: npm test passes and the server lists the tool to an MCP client over stdio',
    async () => {
      const dir = mcpProject();
      const client = new Client({ name: 'init-test', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/server.js'], cwd: dir, stderr: 'pipe' }));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(['text.count_words']);
        expect(await client.callTool({ name: 'text.count_words', arguments: { text: 'one two three' } })).toMatchObject({ structuredContent: { words: 3 } });
      } finally {
        await client.close();
      }
      expect(run('npm', ['run', 'contracts:check'], dir)).toContain('1 contract: 0 errors');
    },
    processTimeout,
  );

  /**
   * The server over stdio with exactly the OTEL_ variables given (none of the test's own), one
   * tools/call, then SIGTERM; resolves with what the receiver got and what the server wrote on stderr.
   */
  const servedWith = async (otel: Record<string, string>, receiver: OtlpReceiver): Promise<{ received: OtlpExport[]; stderr: string }> => {
    const plain = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !entry[0].startsWith('OTEL_') && entry[1] !== undefined));
    const transport = new StdioClientTransport({ command: process.execPath, args: ['dist/server.js'], cwd: mcpProject(), env: { ...plain, ...otel }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const client = new Client({ name: 'init-otel-test', version: '1.0.0' });
    await client.connect(transport);
    const exited = new Promise<void>((resolve) => (transport.onclose = resolve));
    try {
      expect(await client.callTool({ name: 'text.count_words', arguments: { text: 'one two' } })).toMatchObject({ structuredContent: { words: 2 } });
      // The batch and the metric reader wait ten minutes: whatever arrives came from the SIGTERM flush.
      expect(receiver.received).toEqual([]);
      process.kill(transport.pid!, 'SIGTERM');
      await exited;
    } finally {
      await client.close();
      receiver.server.close();
    }
    return { received: receiver.received, stderr };
  };
  const waitingLong = { OTEL_BSP_SCHEDULE_DELAY: '600000', OTEL_METRIC_EXPORT_INTERVAL: '600000' };

  it(
    'mcp: with OTEL_EXPORTER_OTLP_ENDPOINT its spans and metrics reach an OTLP receiver as http/json, flushed on SIGTERM',
    async () => {
      const receiver = await otlpReceiver();
      const { received, stderr } = await servedWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'init-json', ...waitingLong }, receiver);
      expect(stderr).toContain(`OpenTelemetry: spans and metrics to ${receiver.url} (http/json)`);
      const traces = received.filter((each) => each.path === '/v1/traces');
      expect(traces.map((each) => each.contentType)).toEqual(['application/json']);
      type Export = { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: { name: string; kind: number }[] }[] }[] };
      const [resourceSpans] = (JSON.parse(traces[0]!.body.toString('utf8')) as Export).resourceSpans;
      expect(resourceSpans!.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'init-json' } });
      expect(resourceSpans!.scopeSpans.flatMap((scope) => scope.spans)).toContainEqual(expect.objectContaining({ name: 'tools/call text.count_words', kind: 2 }));
      const metrics = received.filter((each) => each.path === '/v1/metrics');
      expect(metrics.map((each) => each.body.toString('utf8')).join('')).toContain('mcp.server.operation.duration');
    },
    processTimeout,
  );

  it(
    'mcp: and as http/protobuf',
    async () => {
      const receiver = await otlpReceiver();
      const { received } = await servedWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_SERVICE_NAME: 'init-proto', ...waitingLong }, receiver);
      const traces = received.filter((each) => each.path === '/v1/traces');
      expect(traces.map((each) => each.contentType)).toEqual(['application/x-protobuf']);
      // Protobuf carries strings as their UTF-8 bytes.
      expect(traces[0]!.body.includes('tools/call text.count_words')).toBe(true);
      expect(traces[0]!.body.includes('init-proto')).toBe(true);
      expect(received.filter((each) => each.path === '/v1/metrics').map((each) => each.contentType)).toEqual(['application/x-protobuf']);
    },
    processTimeout,
  );

  it(
    'mcp: without the variables it sends nothing and says nothing of OpenTelemetry',
    async () => {
      // Where an SDK sends by default (http://localhost:4318), when that port is free here.
      const receiver = await otlpReceiver(4318).catch(() => otlpReceiver());
      const { received, stderr } = await servedWith({ OTEL_SERVICE_NAME: 'no-endpoint' }, receiver);
      expect(received).toEqual([]);
      expect(stderr).not.toContain('OpenTelemetry');
    },
    processTimeout,
  );

  it(
    'ai-sdk: npm test passes and the generateText loop calls the tool offline',
    () => {
      const dir = project('ai-sdk');
      const { AI_GATEWAY_API_KEY: _, ...offline } = env;
      const started = spawnSync('npm', ['start'], { cwd: dir, encoding: 'utf8', env: offline });
      expect(started.stdout).toContain('text_count_words({"text":"the quick brown fox"}) -> {"words":4}');
      expect(started.stdout).toContain('The tool answered {"words":4}.');
    },
    processTimeout,
  );
});
