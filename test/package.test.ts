import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileContracts } from '../src/compiler.js';
import { type PackedPackage, npmEnvironment, packedPackages } from './support/packed-packages.js';

/**
 * The two packed tarballs installed as a user installs them: the runtime alone into an empty
 * project (production), the compiler as a dev dependency beside it. Nothing else is installed,
 * nothing runs at install, every entry point runs, and both bin names build with no TypeScript.
 */
describe('the published packages', () => {
  const root = resolve('.');
  const work = mkdtempSync(join(tmpdir(), 'jtc-pack-'));
  const npm = (args: string[], cwd: string): string => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: npmEnvironment });
  /** What npm writes on stderr too, where it warns about install scripts. */
  const npmWithWarnings = (args: string[], cwd: string): string => {
    const run = spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
    expect({ args, status: run.status, stderr: run.status === 0 ? '' : run.stderr }).toEqual({ args, status: 0, stderr: '' });
    return run.stdout + run.stderr;
  };
  /** npm and node processes: room for a machine many times slower than a quiet one. */
  const processTimeout = 600_000;
  const installScripts = ['preinstall', 'install', 'postinstall', 'prepare'];
  let runtime: PackedPackage;
  let compiler: PackedPackage;

  beforeAll(() => {
    ({ runtime, compiler } = packedPackages());
  }, processTimeout);

  it(
    'ships the runtime without the compiler, and the compiler without the runtime',
    () => {
      const runtimeFiles = runtime.files.map((f) => f.path);
      expect(runtimeFiles).toEqual(
        expect.arrayContaining([
          'LICENSE',
          'README.md',
          'package.json',
          'dist/index.js',
          'dist/mcp/server.js',
          'dist/mcp/http/http-server.js',
          'dist/mcp/client/client.js',
          'dist/mcp/sdk-v1/sdk-v1-server.js',
          'dist/mcp/proxy/index.js',
          'dist/providers/ai-sdk.js',
          'dist/providers/provider-tools.js',
          'dist/providers/openai-agents.js',
          'dist/otel/telemetry.js',
          'dist/redis/redis-store.js',
          'src/support/is-plain-object.ts',
          'dist/support/is-plain-object.js',
        ]),
      );
      // No keyword table, emitter, template or CLI; source only for the support code modules carry.
      expect(runtimeFiles.filter((f) => /^(templates|test|bin)\/|subset|emit|codegen|(^|\/)cli\//.test(f) || (f.startsWith('src/') && !f.startsWith('src/support/')))).toEqual([]);
      const compilerFiles = compiler.files.map((f) => f.path);
      expect(compilerFiles).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'bin/jtc.js', 'dist/cli/main.js', 'dist/compiler.js', 'templates/module.ts.tpl', 'schema/contract.schema.json']));
      expect(compilerFiles.filter((f) => /^(src|test|packages|examples|fixtures)\/|^dist\/hosts\//.test(f))).toEqual([]);
      for (const manifest of ['package.json', 'packages/runtime/package.json']) {
        const scripts = Object.keys((JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {});
        expect(scripts.filter((name) => installScripts.includes(name))).toEqual([]);
      }
    },
    processTimeout,
  );

  it(
    'states the runtime tarball unpacked size in the README, within 10%',
    () => {
      const stated = /unpacked\s+size:\s+([\d.]+) kB/.exec(readFileSync('README.md', 'utf8'));
      expect(stated, 'README states the runtime unpacked size as "unpacked size: N kB"').not.toBeNull();
      expect(Math.abs(Number(stated![1]) * 1000 - runtime.unpackedSize) / runtime.unpackedSize).toBeLessThan(0.1);
    },
    processTimeout,
  );

  it(
    'installs the runtime alone with nothing else and no script, and runs every entry point',
    () => {
      const project = join(work, 'production');
      mkdirSync(join(project, 'generated'), { recursive: true });
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'production-server', private: true, type: 'module' }));
      const output = npmWithWarnings(['install', '--offline', runtime.tarball], project);
      expect(output).not.toMatch(/install-scripts|prepare/);
      expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@json-tool-contracts']);
      const listed = npm(['ls', '--all', '--parseable'], project).trim().split('\n').slice(1);
      expect(listed.map((line) => line.slice(project.length + 1))).toEqual([join('node_modules', '@json-tool-contracts', 'runtime')]);

      // The optional peers, as a project that uses those adapters installs them.
      for (const peer of ['ai', '@modelcontextprotocol/sdk', '@openai/agents', '@opentelemetry/api']) {
        mkdirSync(join(project, 'node_modules', peer, '..'), { recursive: true });
        symlinkSync(join(root, 'node_modules', peer), join(project, 'node_modules', peer));
      }
      const source = readFileSync('fixtures/valid/math.add.contract.json', 'utf8');
      for (const file of compileContracts([{ file: 'math.add.contract.json', text: source }], { emit: 'js' }).files) writeFileSync(join(project, 'generated', file.path), file.text);
      writeFileSync(
        join(project, 'main.js'),
        `import { CapabilityRuntime, ToolPolicy, parseJson } from '@json-tool-contracts/runtime';
import { mcpToolHandlers } from '@json-tool-contracts/runtime/mcp';
import { serveToolsOnMcpServerV1 } from '@json-tool-contracts/runtime/mcp/sdk-v1';
import { mcpToolClient } from '@json-tool-contracts/runtime/mcp/client';
import { mcpStdioServer, proxyTools } from '@json-tool-contracts/runtime/mcp/proxy';
import { toAiSdkTools } from '@json-tool-contracts/runtime/ai';
import { openAiChatTools } from '@json-tool-contracts/runtime/providers';
import { openAiAgentsTools } from '@json-tool-contracts/runtime/openai-agents';
import { otelCallObserver } from '@json-tool-contracts/runtime/otel';
import { redisStore } from '@json-tool-contracts/runtime/redis';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { mathAdd } from './generated/index.mjs';
const runtime = new CapabilityRuntime();
runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, async ({ left, right }) => ({ total: left + right }));
const mcp = await mcpToolHandlers(runtime).callTool({ name: 'math.add', arguments: { left: 2, right: 3 } });
const served = mcpToolHandlers(runtime);
const client = await mcpToolClient({ listTools: async () => served.listTools(), callTool: (params) => served.callTool(params) }, { mathAdd }).call('math.add', { left: 3, right: 4 });
// The gateway in front of the server above, as its upstream.
const gate = new CapabilityRuntime();
await proxyTools(gate, { listTools: async () => served.listTools(), request: (message) => served.callTool(message.params) }, { mathAdd });
const proxied = (await gate.callAsync('math.add', { left: 5, right: 6 })).output;
const stdio = typeof mcpStdioServer;
const v1 = serveToolsOnMcpServerV1(new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } }), runtime).listTools().tools.length;
const ai = await toAiSdkTools(runtime).math_add.execute({ left: 4, right: 5 }, { toolCallId: 'c', messages: [] });
// The Redis entry needs no Redis client installed: a client is handed to it; this one's Redis is away.
const fleet = new CapabilityRuntime({ store: redisStore({ sendCommand: async () => { throw new Error('ECONNREFUSED'); } }) });
fleet.registerTypedJsonTool(ToolPolicy.json('math.add').withCallBudget(1), mathAdd, ({ left, right }) => ({ total: left + right }));
const redis = (await fleet.callAsync('math.add', { left: 1, right: 1 })).error.code;
console.log(JSON.stringify({ sync: runtime.call('math.add', { left: 1, right: 1 }).error?.code, mcp: mcp.structuredContent, client: client.output, v1, ai, openai: openAiChatTools(runtime).tools[0].function.name, agents: openAiAgentsTools(runtime)[0].name, json: String(parseJson('1e400', { exactNumbers: true })), otel: new CapabilityRuntime({ observer: otelCallObserver() }).call('math.add', {}).error.code, redis, proxied, stdio }));
`,
      );
      const run = spawnSync(process.execPath, ['main.js'], { cwd: project, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({ sync: 'asynchronous_handler', mcp: { total: 5 }, client: { total: 7 }, v1: 1, ai: { total: 9 }, openai: 'math_add', agents: 'math_add', json: '1e400', otel: 'unknown_tool', redis: 'store_unavailable', proxied: { total: 11 }, stdio: 'function' });
    },
    processTimeout,
  );

  it(
    'installs the compiler as a dev dependency with the runtime and commander only, and both bins build in a CommonJS project',
    () => {
      const project = join(work, 'development');
      mkdirSync(project);
      npm(['init', '-y'], project); // npm's default project: "type": "commonjs"
      expect((JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { type?: string }).type ?? 'commonjs').toBe('commonjs');
      const output = npmWithWarnings(['install', '--offline', '--save-dev', compiler.tarball, runtime.tarball], project);
      expect(output).not.toMatch(/install-scripts|prepare/);
      const listed = npm(['ls', '--all', '--parseable'], project).trim().split('\n').slice(1);
      expect(listed.map((line) => line.slice(project.length + 1)).sort()).toEqual(['node_modules/@json-tool-contracts/runtime', 'node_modules/commander', 'node_modules/json-tool-contracts']);

      copyFileSync('fixtures/valid/math.add.contract.json', join(project, 'math.add.contract.json'));
      for (const bin of ['jtc', 'json-tool-contracts']) {
        const built = spawnSync('npx', ['--offline', bin, 'build', 'math.add.contract.json', '-o', `out-${bin}`], { cwd: project, encoding: 'utf8' });
        expect({ bin, code: built.status, stderr: built.stderr }).toEqual({ bin, code: 0, stderr: '' });
      }
      // --emit js writes JavaScript and declarations straight from the IR: no TypeScript compiler here,
      // and Node loads them as ESM although this project is CommonJS.
      const js = spawnSync('npx', ['--offline', 'jtc', 'build', 'math.add.contract.json', '-o', 'out-js', '--emit', 'js'], { cwd: project, encoding: 'utf8' });
      expect({ code: js.status, stderr: js.stderr }).toEqual({ code: 0, stderr: '' });
      const imported = spawnSync(process.execPath, ['-e', "import('./out-js/index.mjs').then(({ mathAdd }) => console.log(mathAdd.input.is({ left: 1, right: 2 }), mathAdd.input.is({ left: 1 })));"], { cwd: project, encoding: 'utf8' });
      expect({ stdout: imported.stdout.trim(), stderr: imported.stderr }).toEqual({ stdout: 'true false', stderr: '' });
      // Every Node the engines field names (20.19+, 22.12+, 24+) requires ES modules from CommonJS: the modules and the runtime alike.
      expect((process.features as { require_module?: boolean }).require_module).toBe(true);
      const required = spawnSync(process.execPath, ['--no-warnings', '-e', "const { mathAdd } = require('./out-js/index.mjs'); const { CapabilityRuntime } = require('@json-tool-contracts/runtime'); console.log(mathAdd.output.is({ total: 3 }), typeof CapabilityRuntime);"], { cwd: project, encoding: 'utf8' });
      expect({ stdout: required.stdout.trim(), stderr: required.stderr }).toEqual({ stdout: 'true function', stderr: '' });
    },
    processTimeout,
  );
});

describe('the development setup', () => {
  it('runs npm scripts and tests on the Node the user has: no dependency puts a `node` in node_modules/.bin', () => {
    // npm puts node_modules/.bin first on every script's PATH, so such a binary would run the
    // whole suite on another Node than the engines field promises (tools/node22 is apart).
    expect(existsSync('node_modules/.bin/node')).toBe(false);
  });
});
