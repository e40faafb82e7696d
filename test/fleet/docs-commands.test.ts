import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port.js';
import { skipWithoutRedis } from '../support/redis-server.js';

/**
 * docs/fleet.md's commands that start a Redis and three replicas, pasted into a shell as written
 * (its ports moved to free ones: a test machine may run a Redis on 6379), three times over, from a
 * folder without the build: each time every replica starts and serves. Slow (a build, four
 * processes, three times): `npm run test:fleet`.
 */
const heading = 'Start a Redis, build the contracts once, and start three replicas on it:';
const commands = new RegExp(`${heading}\\n\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readFileSync('docs/fleet.md', 'utf8'))?.[1];

/** Runs the commands in bash in a process group of their own; resolves once every port serves, with how to end them all. */
async function runCommands(script: string, ports: readonly number[]): Promise<{ output: () => string; end: () => Promise<void> }> {
  const shell = spawn('bash', ['-c', `${script}wait\n`], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => shell.once('exit', () => resolve()));
  const end = async () => {
    if (shell.exitCode === null && shell.signalCode === null) process.kill(-shell.pid!, 'SIGTERM');
    await exited;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const hear = (chunk: Buffer) => {
        output += chunk.toString();
        if (ports.every((port) => output.includes(`MCP server on http://127.0.0.1:${port}/mcp`))) resolve();
        // A build that stopped (jtc's one-line errors) leaves its replica unstarted: no use waiting for it.
        if (/^jtc: /m.test(output)) reject(new Error(`a build stopped, so not every replica started: ${output}`));
      };
      shell.stdout!.on('data', hear);
      shell.stderr!.on('data', hear);
      shell.once('exit', (code, signal) => reject(new Error(`the commands stopped (${String(code ?? signal)}) before every replica served: ${output}`)));
    });
  } catch (error) {
    await end();
    throw error;
  }
  return { output: () => output, end };
}

describe.skipIf(skipWithoutRedis)("docs/fleet.md's fleet, started as the page says", () => {
  it('starts a Redis and three replicas that serve as one server, three times over', async () => {
    expect(commands, `docs/fleet.md has a sh block after "${heading}"`).toBeDefined();
    for (const written of ['6379', '3001 3002 3003']) expect(commands).toContain(written);
    for (let run = 1; run <= 3; run++) {
      // Each run builds into an empty folder, as on a fresh clone.
      rmSync('examples/fleet/generated', { recursive: true, force: true });
      const [redisPort, ...ports] = [await freePort(), await freePort(), await freePort(), await freePort()];
      const script = commands!.replaceAll('6379', String(redisPort)).replace('3001 3002 3003', ports.join(' '));
      const fleet = await runCommands(script, ports);
      try {
        const counted = [];
        for (const port of ports) {
          const client = new Client({ name: 'docs-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
          await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
          // Redis may still be starting when a replica first asks it: a call denied with store_unavailable is tried again.
          let result = (await client.callTool({ name: 'fleet.count', arguments: {} })) as { isError?: boolean; structuredContent?: { n: number } };
          while (result.isError === true) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            result = (await client.callTool({ name: 'fleet.count', arguments: {} })) as typeof result;
          }
          counted.push(result.structuredContent?.n);
          await client.close();
        }
        // One budget for the three: the third call is the fleet's third.
        expect(counted, `run ${run}`).toEqual([1, 2, 3]);
        expect(fleet.output()).not.toContain('another jtc build');
      } finally {
        await fleet.end();
      }
    }
  });
});
