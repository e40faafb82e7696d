import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { compileContracts } from '../../../../../src/compiler.js';

/**
 * `mcpHttpHandler` on the Web-standard hosts people serve it with besides Node: Bun.serve and
 * Deno.serve (fixtures/web-host-server.mjs, the runtime from its built dist through the package's
 * specifiers; `npm run build` first). A Node client makes a tools/call whose answer became an event
 * stream, at each revision, and cancels the response body mid-stream: the host cancels the handler's
 * stream, which must cancel the call (its record says so) and leave the server alive to answer the
 * next call. The binaries come from tools/bun and tools/deno (scripts/web-host-binary.js).
 */
const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const serverScript = fileURLToPath(new URL('./fixtures/web-host-server.mjs', import.meta.url));
const hosts = ['bun', 'deno'] as const;
const revisions = ['2025-11-25', '2026-07-28'] as const;
type Host = (typeof hosts)[number];
type Revision = (typeof revisions)[number];

/** The path of a host's binary (installed into tools/<host> on first use), or why there is none. */
function findBinary(host: Host): { readonly path: string } | { readonly problem: string } {
  const found = spawnSync(process.execPath, [join(root, 'scripts/web-host-binary.js'), host], { encoding: 'utf8', timeout: 600_000 });
  const path = found.stdout?.trim();
  return found.status === 0 && path !== undefined && path !== '' ? { path } : { problem: (found.stderr ?? String(found.error)).trim() };
}

const textContract = (name: string, description: string, output: Record<string, unknown>) => ({
  file: `${name}.contract.json`,
  text: JSON.stringify({
    name,
    description,
    input: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
    output: { type: 'object', properties: output, required: Object.keys(output), additionalProperties: false },
  }),
});
const generated = mkdtempSync(join(tmpdir(), 'jtc-web-hosts-'));
afterAll(() => rmSync(generated, { recursive: true, force: true }));
const { files } = compileContracts([textContract('text.linger', 'Logs, then waits for its cancellation.', { text: { type: 'string' } }), textContract('calls.outcomes', 'The outcomes of the calls of text.linger so far.', { outcomes: { type: 'array', items: { type: 'string' } } })], { emit: 'js' });
for (const file of files) writeFileSync(join(generated, file.path), file.text);
const contractsUrl = pathToFileURL(join(generated, 'index.mjs')).href;

const commandLine: Record<Host, (binary: string) => string[]> = {
  bun: (binary) => [binary, serverScript, contractsUrl],
  // Network on 127.0.0.1 and reading (node_modules, the generated contracts): nothing more.
  deno: (binary) => [binary, 'run', '--no-prompt', '--allow-net=127.0.0.1', '--allow-read', serverScript, contractsUrl],
};

interface Started {
  readonly process: ChildProcess;
  readonly url: string;
  readonly stderr: () => string;
  /** Rejects, with what the server said, if it ends while it is tested. */
  readonly ended: Promise<never>;
}

/** The fixture server on a host: its process once it printed its port. */
function startServer(host: Host, binary: string): Promise<Started> {
  const [command, ...args] = commandLine[host](binary);
  // Without colours, so that what a server said reads plainly in a failure.
  const child = spawn(command!, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const port = /^listening (\d+)$/m.exec(stdout)?.[1];
      if (port !== undefined) resolve({ process: child, url: `http://127.0.0.1:${port}/mcp`, stderr: () => stderr, ended });
    });
    const ended = new Promise<never>((_, rejectEnded) => child.once('exit', (code, signal) => rejectEnded(new Error(`the ${host} server ended (${String(code ?? signal)}):\n${stderr}`))));
    ended.catch(reject);
  });
}

/** A 2025-11-25 session begun by hand: its id. */
async function initialized(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'by-hand', version: '1' } } }),
  });
  await response.body?.cancel();
  return response.headers.get('mcp-session-id')!;
}

/** A tools/call of text.linger (it logs first, so that its answer becomes an event stream) at a revision. */
function streamedCall(url: string, revision: Revision, sessionId?: string): Promise<Response> {
  const params = { name: 'text.linger', arguments: { text: 'x' } };
  const accept = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (revision === '2025-11-25') return fetch(url, { method: 'POST', headers: { ...accept, 'mcp-session-id': sessionId! }, body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params }) });
  const meta = { 'io.modelcontextprotocol/protocolVersion': revision, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/logLevel': 'info' };
  return fetch(url, {
    method: 'POST',
    headers: { ...accept, 'mcp-protocol-version': revision, 'mcp-method': 'tools/call', 'mcp-name': 'text.linger' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { ...params, _meta: meta } }),
  });
}

/** The outcomes calls.outcomes answers, asked by an SDK client of that revision (v1 for 2025-11-25, v2 pinned to 2026-07-28). */
async function outcomesFromSdkClient(url: string, revision: Revision): Promise<unknown> {
  const client = revision === '2025-11-25' ? new ClientV1({ name: 'next-call', version: '1.0.0' }) : new ClientV2({ name: 'next-call', version: '1.0.0' }, { versionNegotiation: { mode: { pin: revision } } });
  if (client instanceof ClientV1) await client.connect(new HttpV1(new URL(url)));
  else await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return ((await client.callTool({ name: 'calls.outcomes', arguments: {} })).structuredContent as { outcomes: string[] }).outcomes;
  } finally {
    await client.close();
  }
}

/**
 * What a server wrote to stderr besides Deno's notice that its `request.signal` still aborts once a
 * response was delivered (its legacy default, which mcpHttpHandler's listener on the signal meets
 * after every call): an uncaught error or a rejection would be here.
 */
const unexpectedStderr = (stderr: string): string[] => stderr.split('\n').filter((line) => line !== '' && !line.startsWith('Deno.serve: request.signal aborts on successful responses (legacy behavior).'));

const binaries = new Map(hosts.map((host) => [host, findBinary(host)]));
for (const [host, found] of binaries) {
  // Without the binary (tools/<host> provides it for linux-x64 only) a contributor's machine says so
  // loudly and skips the host; CI fails.
  if ('problem' in found && process.env['CI'] === undefined) console.warn(`\n!!! mcpHttpHandler WAS NOT TESTED ON ${host.toUpperCase()}: scripts/web-host-binary.js found no binary (${found.problem}). CI runs it.\n`);
}

describe.each(hosts)('mcpHttpHandler served by %s: a client that cancels a streamed call’s body', (host) => {
  const found = binaries.get(host)!;
  let server: Started | undefined;
  afterEach(() => {
    server?.process.kill();
    server = undefined;
  });

  it.skipIf('problem' in found && process.env['CI'] === undefined).each(revisions)('at %s: the call is cancelled, and the server lives and answers the next call', async (revision) => {
    if ('problem' in found) throw new Error(`no ${host} binary: ${found.problem}`);
    server = await startServer(host, found.path);
    const sessionId = revision === '2025-11-25' ? await initialized(server.url) : undefined;
    const response = await streamedCall(server.url, revision, sessionId);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('started');
    await reader.cancel();

    // The host tells the handler in its own time: a new client's calls ask until the record says cancelled.
    await Promise.race([expect.poll(() => outcomesFromSdkClient(server!.url, revision), { timeout: 60_000, interval: 200 }).toEqual(['cancelled']), server.ended]);
    expect(server.process.exitCode, server.stderr()).toBeNull();
    expect(unexpectedStderr(server.stderr())).toEqual([]);
  });
});
