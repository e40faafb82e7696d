import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The official MCP conformance suite (pinned 0.1.16; it needs Node >= 22, which
 * scripts/node22.js provides from tools/node22) against examples/mcp-conformance, started the way its
 * README line says: `PORT=<port> npm run example:conformance`. Every scenario must pass except
 * those in expected-failures.yml, and no tool scenario may be there.
 */
const suite = 'node_modules/@modelcontextprotocol/conformance/dist/index.js';
const expectedFailures = 'examples/mcp-conformance/expected-failures.yml';
const processTimeout = 20 * 60_000;

/** Scenarios whose subject is a tool the runtime serves. */
const isToolScenario = (name: string): boolean => name.startsWith('tools-') || name.startsWith('elicitation-') || name === 'json-schema-2020-12' || name === 'server-sse-polling';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The path of a Node >= 22 binary, installed into tools/node22 on first use. */
function node22(): string {
  const found = spawnSync(process.execPath, ['scripts/node22.js'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: processTimeout });
  if (found.status !== 0) throw new Error('scripts/node22.js found no Node >= 22 for the conformance suite (see its message above)');
  return found.stdout.trim();
}

function runSuite(url: string, ...args: string[]) {
  const run = spawnSync(node22(), [suite, 'server', '--url', url, '--expected-failures', expectedFailures, ...args], { encoding: 'utf8', timeout: processTimeout, maxBuffer: 256 * 1024 * 1024 });
  // A suite that could not start, or that was stopped, says why instead of failing on missing output.
  if (run.error !== undefined || run.stdout === null) throw new Error(`the conformance suite did not run to its end: ${String(run.error ?? `signal ${String(run.signal)}`)}\n${run.stderr ?? ''}`);
  const summary = run.stdout.slice(run.stdout.lastIndexOf('=== SUMMARY ==='));
  return { status: run.status, stdout: run.stdout, summary };
}

describe('examples/mcp-conformance against the official MCP conformance suite', () => {
  let server: ChildProcess | undefined;
  let url = '';

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    server = spawn('npm', ['run', '--silent', 'example:conformance'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      server!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(`MCP server on ${url}`)) resolve();
      });
      server!.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
      server!.on('exit', (code) => reject(new Error(`the example server exited (${String(code)}): ${output}`)));
    });
  }, processTimeout);

  afterAll(() => {
    // npm starts the server as its child: end the whole group npm leads.
    if (server?.pid !== undefined) {
      try {
        process.kill(-server.pid);
      } catch {
        server.kill();
      }
    }
  });

  it('lists no tool scenario among the expected failures, each with its reason', () => {
    const entries = readFileSync(expectedFailures, 'utf8')
      .split('\n')
      .filter((line) => /^\s*-\s/.test(line));
    for (const entry of entries) {
      const [, name, reason] = /^\s*-\s*([\w-]+)\s*(?:#\s*(.*))?$/.exec(entry) ?? [];
      expect(name !== undefined && reason !== undefined && reason.length > 0, `${entry}: a scenario name and "# reason"`).toBe(true);
      expect(isToolScenario(name!), `${name} is a tool scenario`).toBe(false);
    }
  });

  it(
    'passes every scenario of the active suite but the expected failures, and the JSON Schema 2020-12 one',
    () => {
      const active = runSuite(url);
      expect(active.summary).toMatch(/Total: \d+ passed/);
      expect(active.summary).toContain('✓ tools-call-sampling');
      expect({ status: active.status, summary: active.summary }).toEqual({ status: 0, summary: expect.not.stringMatching(/✗ (tools-|elicitation-)/) as unknown });
      const schema = runSuite(url, '--scenario', 'json-schema-2020-12');
      expect({ status: schema.status, passed: /Passed: (\d+)\/\1, 0 failed/.test(schema.stdout) }).toEqual({ status: 0, passed: true });
    },
    processTimeout,
  );
});
