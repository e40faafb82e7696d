import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { compileContract } from '../support/load-module.js';
import { jtc } from './jtc-process.js';
import { startGateway } from './proxy-process.js';

/**
 * Learning output contracts from real servers: the contracts jtc import wrote for
 * @modelcontextprotocol/server-memory and -filesystem, their outputs loosened to `{}` (as for a
 * server that lists no output schema, 88.81% of the registry's write tools), served by
 * `jtc proxy --learn`; real calls recorded; `jtc infer` proposes contracts that `jtc check` accepts
 * and whose outputs accept every recorded sample.
 */
const folders: string[] = [];
const slow = 240_000;
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jtc-infer-'));
  folders.push(dir);
  return dir;
}

/** The committed contracts of a server with every output accepting anything. */
function loosened(server: string, into: string): string {
  const dir = join(into, 'contracts');
  cpSync(`fixtures/import/${server}/contracts`, dir, { recursive: true });
  for (const file of readdirSync(dir)) {
    const contract = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, file), `${JSON.stringify({ ...contract, output: {} }, null, 2)}\n`);
  }
  return dir;
}

interface Learned {
  readonly samples: string;
  readonly contracts: string;
  readonly work: string;
}

async function learn(server: string, command: string, calls: readonly [string, Record<string, unknown>][], flags: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<Learned> {
  const work = scratch();
  const contracts = loosened(server, work);
  const samples = join(work, 'samples');
  const gateway = await startGateway([contracts, '--stdio', command, '--learn', samples, ...flags], env);
  try {
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(gateway.url));
    for (const [name, args] of calls) expect((await client.callTool({ name, arguments: args })).isError, `${name} ${JSON.stringify(args)}`).not.toBe(true);
    await client.close();
  } finally {
    await gateway.stop();
  }
  return { samples, contracts, work };
}

const linesOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { output?: unknown; arguments?: unknown; content?: string[] });

/** Infers, checks the proposals with jtc check, and holds every recorded output to them. */
function inferAndHold(learned: Learned): Map<string, Record<string, unknown>> {
  const proposed = join(learned.work, 'proposed');
  const run = jtc(['infer', learned.samples, '--contracts', learned.contracts, '-o', proposed]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toMatch(/with samples: \d+ inferred; review each before it replaces its contract\n$/);
  expect(jtc(['check', proposed])).toMatchObject({ code: 0 });
  const byTool = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(proposed)) {
    const text = readFileSync(join(proposed, file), 'utf8');
    const contract = JSON.parse(text) as { name: string; input: unknown; output: Record<string, unknown> };
    expect(contract.output['description']).toMatch(/^Inferred by jtc infer from \d+ recorded outputs?: review it before it is enforced\.$/);
    // The input is the committed one, untouched.
    expect(contract.input).toEqual((JSON.parse(readFileSync(join(learned.contracts, file), 'utf8')) as { input: unknown }).input);
    const validator = compileContract(text, file).output;
    const recorded = linesOf(join(learned.samples, `${contract.name}.samples.jsonl`)).flatMap((line) => (line.output === undefined ? [] : [line.output]));
    expect(recorded.length).toBeGreaterThan(0);
    for (const output of recorded) expect(validator.validate(output), `${contract.name}: ${JSON.stringify(output)}`).toMatchObject({ ok: true });
    byTool.set(contract.name, contract.output);
  }
  return byTool;
}

describe('jtc proxy --learn, then jtc infer', () => {
  it(
    'proposes output contracts for server-memory that jtc check accepts and that accept every recorded output',
    async () => {
      const work = scratch();
      const learned = await learn(
        'server-memory',
        `"${process.execPath}" node_modules/@modelcontextprotocol/server-memory/dist/index.js`,
        [
          [
            'create_entities',
            {
              entities: [
                { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] },
                { name: 'London', entityType: 'place', observations: [] },
              ],
            },
          ],
          ['create_entities', { entities: [{ name: 'Charles', entityType: 'person', observations: ['built engines'] }] }],
          ['create_relations', { relations: [{ from: 'Ada', to: 'London', relationType: 'lived in' }] }],
          ['add_observations', { observations: [{ entityName: 'Ada', contents: ['secret: 1815'] }] }],
          ['read_graph', {}],
          ['search_nodes', { query: 'Ada' }],
          ['open_nodes', { names: ['Ada', 'London'] }],
        ],
        [],
        { ...process.env, MEMORY_FILE_PATH: join(work, 'memory.jsonl') },
      );
      // No argument value is written unless asked: the observation "secret: 1815" went in only as an argument.
      const written = readdirSync(learned.samples).map((file) => readFileSync(join(learned.samples, file), 'utf8'));
      expect(written.join('')).not.toContain('"arguments"');
      expect(linesOf(join(learned.samples, 'create_entities.samples.jsonl'))).toHaveLength(2);
      const inferred = inferAndHold(learned);
      expect([...inferred.keys()].sort()).toEqual(['add_observations', 'create_entities', 'create_relations', 'open_nodes', 'read_graph', 'search_nodes']);
      // read_graph answered once: its entities closed, as that one sample has them.
      expect(inferred.get('read_graph')).toMatchObject({ type: 'object', required: ['entities', 'relations'], properties: { entities: { type: 'array', items: { type: 'object', required: ['name', 'entityType', 'observations'] } } } });
    },
    slow,
  );

  it(
    'proposes output contracts for server-filesystem, and keeps to --learn-samples and --learn-arguments',
    async () => {
      const root = scratch();
      writeFileSync(join(root, 'a.txt'), 'alpha\n');
      writeFileSync(join(root, 'b.txt'), 'beta\n');
      const learned = await learn(
        'server-filesystem',
        `"${process.execPath}" node_modules/@modelcontextprotocol/server-filesystem/dist/index.js "${root}"`,
        [
          ['list_allowed_directories', {}],
          ['list_directory', { path: root }],
          ['read_text_file', { path: join(root, 'a.txt') }],
          ['read_text_file', { path: join(root, 'b.txt') }],
          ['read_text_file', { path: join(root, 'a.txt') }],
          ['get_file_info', { path: join(root, 'a.txt') }],
        ],
        ['--learn-samples', '2', '--learn-arguments'],
      );
      const reads = linesOf(join(learned.samples, 'read_text_file.samples.jsonl'));
      expect(reads).toHaveLength(2);
      expect(reads.map((line) => line.arguments)).toEqual([{ path: join(root, 'a.txt') }, { path: join(root, 'b.txt') }]);
      const inferred = inferAndHold(learned);
      expect(inferred.get('read_text_file')).toMatchObject({ type: 'object', properties: { content: { type: 'string' } }, required: ['content'], additionalProperties: false });
    },
    slow,
  );

  it('says what it cannot infer, and refuses to write over the contracts it read', () => {
    const work = scratch();
    const contracts = loosened('server-everything', work);
    const samples = join(work, 'samples');
    expect(jtc(['infer', samples, '--contracts', contracts, '-o', join(work, 'proposed')])).toMatchObject({ code: 2, stderr: `jtc: ${samples}: no such file or folder\n` });
    mkdirSync(samples);
    writeFileSync(join(samples, 'echo.samples.jsonl'), `${JSON.stringify({ content: ['text'] })}\n`);
    writeFileSync(join(samples, 'gone.samples.jsonl'), `${JSON.stringify({ output: { a: 1 } })}\n`);
    expect(jtc(['infer', samples, '--contracts', contracts, '-o', contracts])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^jtc: infer: -o .* is the contracts folder; write the proposals elsewhere/) });
    const run = jtc(['infer', samples, '--contracts', contracts, '-o', join(work, 'proposed')]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(`"echo": not inferred, it answered with content only (no JSON output): there is no output contract to propose\n"gone": not inferred, no contract in ${contracts} is for it\n2 tools with samples: 0 inferred; review each before it replaces its contract\n`);
  });
});
