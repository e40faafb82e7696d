import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileContracts } from '../src/compiler.js';

/**
 * The packed tarball installed into an empty project, as a user adds the package: the runtime and
 * an adapter run on generated modules, nothing else is installed (no TypeScript compiler, no CLI
 * dependency), and both bin names build `.ts` and `.js` modules with no compiler present.
 */
describe('the published package', () => {
  const root = resolve('.');
  const work = mkdtempSync(join(tmpdir(), 'jtc-pack-'));
  const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

  it('installs with no dependency, runs the runtime and the MCP adapter, and builds .ts and .js without TypeScript', () => {
    const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root)) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toContain('LICENSE');
    expect(files).toContain('dist/hosts/mcp.js');
    expect(files).toContain('schema/contract.schema.json');
    // Source ships only for the support code generated modules carry, read as text by `jtc build`.
    expect(files.filter((f) => (f.startsWith('src/') && !f.startsWith('src/support/')) || f.startsWith('test/'))).toEqual([]);
    expect(files).toContain('src/support/is-plain-object.ts');

    const project = join(work, 'project');
    mkdirSync(join(project, 'generated'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
    npm(['install', '--offline', join(work, packed[0]!.filename)], project);
    const installed = readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installed).toEqual(['json-tool-contracts']);
    expect(npm(['ls', '--all', '--parseable'], project)).not.toMatch(/typescript|commander|decimal\.js/);

    const source = readFileSync('fixtures/valid/math.add.contract.json', 'utf8');
    for (const file of compileContracts([{ file: 'math.add.contract.json', text: source }], { emit: 'js' }).files) writeFileSync(join(project, 'generated', file.path), file.text);
    writeFileSync(
      join(project, 'main.js'),
      `import { CapabilityRuntime, ToolPolicy } from 'json-tool-contracts';
import { mcpToolHandlers } from 'json-tool-contracts/mcp';
import { openAiChatTools } from 'json-tool-contracts/providers';
import { mathAdd } from './generated/index.js';
const runtime = new CapabilityRuntime();
runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, async ({ left, right }) => ({ total: left + right }));
const mcp = mcpToolHandlers(runtime);
const result = await mcp.callTool({ name: 'math.add', arguments: { left: 2, right: 3 } });
console.log(JSON.stringify({ sync: runtime.call('math.add', { left: 1, right: 1 }).error?.code, mcp: result.structuredContent, openai: openAiChatTools(runtime).tools[0].function.name }));
`,
    );
    const run = spawnSync(process.execPath, ['main.js'], { cwd: project, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ sync: 'asynchronous_handler', mcp: { total: 5 }, openai: 'math_add' });

    copyFileSync('fixtures/valid/math.add.contract.json', join(project, 'math.add.contract.json'));
    for (const bin of ['jtc', 'json-tool-contracts']) {
      const built = spawnSync(join(project, 'node_modules', '.bin', bin), ['build', 'math.add.contract.json', '-o', `out-${bin}`], { cwd: project, encoding: 'utf8' });
      expect({ bin, code: built.status, stderr: built.stderr }).toEqual({ bin, code: 0, stderr: '' });
    }
    // --emit js writes JavaScript and declarations straight from the IR: no TypeScript compiler here.
    const js = spawnSync(join(project, 'node_modules', '.bin', 'jtc'), ['build', 'math.add.contract.json', '-o', 'out-js', '--emit', 'js'], { cwd: project, encoding: 'utf8' });
    expect({ code: js.status, stderr: js.stderr }).toEqual({ code: 0, stderr: '' });
    const check = spawnSync(process.execPath, ['--input-type=module', '-e', "const { mathAdd } = await import('./out-js/index.js'); console.log(mathAdd.input.is({ left: 1, right: 2 }), mathAdd.input.is({ left: 1 }));"], { cwd: project, encoding: 'utf8' });
    expect(check.stdout.trim()).toBe('true false');
  }, 120_000);
});
