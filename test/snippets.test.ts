import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otlpReceiver } from './support/otlp-receiver.js';
import { npmEnvironment, packedPackages } from './support/packed-packages.js';

/**
 * Every TypeScript and JavaScript block of the READMEs and docs/ compiled as a user compiles it: the
 * two packed tarballs installed into an empty project, the host SDKs linked in from this
 * repository's node_modules, each page's `./generated/` built there by the packed `jtc`, and one tsc
 * program over every block under the tsconfig `jtc init` writes. The fence info says what a block is
 * (CONTRIBUTING.md, "Code blocks in the docs"):
 *
 *   ```ts               a file a user can copy as it is: it must compile
 *   ```ts run           it must compile, and it runs with node in that project (no network, no model,
 *                       no server to reach): exit 0, nothing on stderr
 *   ```ts file=tools.ts it is saved as tools.ts beside the page's other blocks, which import it
 *                       as './tools.js'
 *   ```ts partial       an excerpt that needs the text around it: it must NOT compile, so a block
 *                       that became whole loses the mark and is checked from then on
 *   ```json             it parses; a contract (name, input, output) passes the packed `jtc check`
 */

const root = resolve('.');
/** The pages: this README, the runtime package's (npm shows it) and every page of docs/. */
const pages = [
  'README.md',
  'packages/runtime/README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
].sort();

/**
 * What a page's `./generated/index.js` holds: `math.add`, unless the page's examples use other tools
 * (fixtures/docs/ holds the contracts of the tools only the docs use) or call a server's.
 */
const docsContracts = ['fixtures/valid/math.add.contract.json'];
const contractsOf: Record<string, string[]> = {
  'docs/runtime.md': [...docsContracts, 'fixtures/valid/notes.search.contract.json', 'fixtures/docs/git.log.contract.json'],
  'docs/mcp-servers.md': ['fixtures/docs/pages.fetch.contract.json', 'fixtures/docs/files.index.contract.json', 'fixtures/docs/charts.render.contract.json', 'fixtures/docs/reports.build.contract.json'],
  'docs/mcp-revisions.md': [...docsContracts, 'fixtures/docs/files.remove.contract.json'],
  'docs/mcp-clients.md': ['fixtures/import/server-memory/contracts', 'fixtures/docs/notes.forget.contract.json'],
  'docs/fleet.md': [...docsContracts, 'examples/fleet/contracts'],
  'docs/gateway.md': ['fixtures/import/server-memory/contracts'],
};

/**
 * The host SDKs and types a user installs beside the runtime (the runtime's declarations name them),
 * and any other package a block imports, linked from this repository's node_modules.
 */
const hostPackages = [
  '@types/node',
  'openai',
  'ai',
  '@anthropic-ai/sdk',
  '@google/genai',
  '@openai/agents',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/client',
  'zod',
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-metrics-otlp-http',
  '@opentelemetry/sdk-logs',
  '@opentelemetry/exporter-logs-otlp-http',
];
const ourPackages = ['json-tool-contracts', '@json-tool-contracts/runtime'];

const languages: Record<string, Block['extension']> = { ts: '.ts', typescript: '.ts', js: '.js', javascript: '.js', json: '.json' };
const marks = ['partial', 'run'];

interface Block {
  page: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  extension: '.ts' | '.js' | '.json';
  marks: string[];
  /** `file=name`: the name the page's other blocks import it by. */
  file: string | undefined;
  text: string;
  /** The block's file in the project. */
  path: string;
  /** Fence words that mean nothing here (a typo of a mark). */
  unknown: string[];
}

/** The fenced blocks of a page (``` or ~~~, indented in a list item or not) in TS, JS or JSON. */
function blocksOf(page: string, project: string): Block[] {
  const lines = readFileSync(page, 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^( *)(`{3,}|~{3,})\s*(\S*)(.*)$/.exec(lines[index]!);
    if (open === null) continue;
    const [, indent, fence, language, info] = open;
    const close = new RegExp(`^ *${fence![0] === '`' ? '`' : '~'}{${fence!.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !close.test(lines[end]!)) end++;
    const text = lines
      .slice(index + 1, end)
      .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line.trimStart()))
      .join('\n');
    const extension = languages[language!.toLowerCase()];
    if (extension !== undefined) {
      const words = info!.trim().split(/\s+/).filter(Boolean);
      const file = words.find((word) => word.startsWith('file='))?.slice('file='.length);
      const folder = join(project, 'pages', page.replace(/\.md$/, ''));
      blocks.push({
        page,
        line: index + 1,
        extension,
        marks: words.filter((word) => marks.includes(word)),
        file,
        text: `${text}\n`,
        path: join(folder, file ?? `line-${index + 1}${extension === '.json' && isContract(text) ? '.contract.json' : extension}`),
        unknown: words.filter((word) => !marks.includes(word) && !word.startsWith('file=')),
      });
    }
    index = end;
  }
  return blocks;
}

/** A JSON block that is a contract file: `jtc check` must accept it. */
function isContract(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && ['name', 'input', 'output'].every((key) => key in value);
  } catch {
    return false;
  }
}

/** The packages outside this repository that a block imports (`openai`, `@scope/name`, not `node:`). */
function packagesImportedBy(text: string): string[] {
  return [...text.matchAll(/\bfrom\s+'([^.'][^']*)'|\bimport\s+'([^.'][^']*)'/g)]
    .map((match) => (match[1] ?? match[2])!)
    .filter((specifier) => !specifier.startsWith('node:'))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

const project = mkdtempSync(join(tmpdir(), 'jtc-snippets-'));
const blocks = pages.flatMap((page) => blocksOf(page, project));
const codeBlocks = blocks.filter((block) => block.extension !== '.json');
const jsonBlocks = blocks.filter((block) => block.extension === '.json');
const name = (block: Block): string => {
  const words = [...(block.file === undefined ? [] : [block.file]), ...block.marks];
  return `${block.page}:${block.line}${words.length > 0 ? ` (${words.join(', ')})` : ''}`;
};

/** tsc's errors (jtc's for contracts), each as `page:line:column TSnnnn: message` at its place in the page. */
const errorsOf = new Map<Block, string[]>();
const otherErrors: string[] = [];

describe('the code blocks of the READMEs and docs/', () => {
  /** npm, jtc, tsc and node on a busy machine: room for one many times slower than a quiet one. */
  const processTimeout = 900_000;
  const jtc = join(project, 'node_modules', 'json-tool-contracts', 'bin', 'jtc.js');

  beforeAll(() => {
    const { runtime, compiler } = packedPackages();
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'docs-snippets', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--offline', runtime.tarball, compiler.tarball], { cwd: project, env: npmEnvironment, stdio: ['ignore', 'pipe', 'pipe'] });
    // After the install, which would remove what its manifest does not name.
    const imported = codeBlocks.flatMap((block) => packagesImportedBy(block.text)).filter((name) => !ourPackages.includes(name) && existsSync(join(root, 'node_modules', name)));
    for (const name of new Set([...hostPackages, ...imported])) {
      mkdirSync(join(project, 'node_modules', name, '..'), { recursive: true });
      symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name));
    }
    // The docs' contracts where a user keeps them, for the blocks that read them.
    for (const file of docsContracts) cpSync(file, join(project, 'contracts', file.split('/').pop()!));

    for (const block of blocks) {
      mkdirSync(dirname(block.path), { recursive: true });
      writeFileSync(block.path, block.text);
    }
    for (const page of new Set(blocks.filter((block) => block.text.includes("'./generated/")).map((block) => block.page))) {
      const out = join(project, 'pages', page.replace(/\.md$/, ''), 'generated');
      execFileSync(process.execPath, [jtc, 'build', ...(contractsOf[page] ?? docsContracts).map((file) => join(root, file)), '-o', out], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    }

    // The options of the project `jtc init` writes, but for unused names: a snippet shows a value.
    const template = JSON.parse(readFileSync('templates/init/common/tsconfig.json', 'utf8')) as { compilerOptions: Record<string, unknown> };
    const { options, errors } = ts.convertCompilerOptionsFromJson({ ...template.compilerOptions, noUnusedLocals: false, noUnusedParameters: false, allowJs: true, checkJs: true, moduleDetection: 'force', rootDir: '.', outDir: 'out' }, project);
    expect(errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n'))).toEqual([]);
    const host = ts.createCompilerHost(options);
    host.getCurrentDirectory = () => project;
    const program = ts.createProgram({ rootNames: codeBlocks.map((block) => block.path), options: { ...options, configFilePath: join(project, 'tsconfig.json') }, host });
    const byPath = new Map(blocks.map((block) => [block.path, block]));
    for (const diagnostic of [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics]) {
      const message = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      const block = diagnostic.file === undefined ? undefined : byPath.get(resolve(diagnostic.file.fileName));
      if (block === undefined || diagnostic.start === undefined) {
        otherErrors.push(`${diagnostic.file === undefined ? '' : `${relative(project, diagnostic.file.fileName)}: `}${message}`);
        continue;
      }
      const { line, character } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
      errorsOf.set(block, [...(errorsOf.get(block) ?? []), `${block.page}:${block.line + 1 + line}:${character + 1} ${message}`]);
    }

    // Contract blocks, all in one run of the packed jtc.
    const contracts = jsonBlocks.filter((block) => block.path.endsWith('.contract.json'));
    if (contracts.length > 0) {
      const checked = spawnSync(process.execPath, [jtc, 'check', '--format', 'json', ...contracts.map((block) => block.path)], { cwd: project, encoding: 'utf8' });
      const { diagnostics } = JSON.parse(checked.stdout) as { diagnostics: { file: string; line: number; column: number; code: string; severity: string; message: string }[] };
      for (const diagnostic of diagnostics) {
        const block = contracts.find((contract) => contract.path === resolve(project, diagnostic.file));
        if (block === undefined) otherErrors.push(`${diagnostic.file}: ${diagnostic.code}: ${diagnostic.message}`);
        else errorsOf.set(block, [...(errorsOf.get(block) ?? []), `${block.page}:${block.line + diagnostic.line}:${diagnostic.column} ${diagnostic.severity} ${diagnostic.code}: ${diagnostic.message}`]);
      }
    }
    for (const block of jsonBlocks) {
      try {
        JSON.parse(block.text);
      } catch (error) {
        const position = /at position (\d+)/.exec((error as Error).message)?.[1];
        const line = block.line + 1 + (position === undefined ? 0 : block.text.slice(0, Number(position)).split('\n').length - 1);
        errorsOf.set(block, [...(errorsOf.get(block) ?? []), `${block.page}:${line}: not JSON: ${(error as Error).message}`]);
      }
    }
  }, processTimeout);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('marks every block with words it knows: a partial block neither runs nor is imported, a file= name is a plain file name, once per page', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      expect(block.unknown, `${name(block)}: unknown fence words (the marks are ${marks.join(', ')}, file=<name>)`).toEqual([]);
      if (block.marks.includes('partial')) expect(block.marks.includes('run') || block.file !== undefined, `${name(block)}: a partial block can neither run nor be imported`).toBe(false);
      if (block.extension === '.json') expect(block.marks.includes('run') || block.file !== undefined, `${name(block)}: a JSON block neither runs nor is imported`).toBe(false);
      if (block.file !== undefined) {
        expect(block.file, `${name(block)}: file= names a file beside the page's blocks, with the block's extension`).toMatch(new RegExp(`^[\\w-]+(\\.[\\w-]+)*\\${block.extension}$`));
        expect(blocks.filter((other) => other.path === block.path).map(name), `${name(block)}: two blocks of the page are the same file`).toEqual([name(block)]);
      }
    }
  });

  it('leaves no error outside the blocks (generated modules, the packages)', () => {
    expect(otherErrors).toEqual([]);
  });

  it.each(codeBlocks.map((block) => [name(block), block] as const))('%s compiles, or is marked partial and does not', (_, block) => {
    const errors = errorsOf.get(block) ?? [];
    if (block.marks.includes('partial')) expect(errors, `${name(block)} compiles: drop the partial mark`).not.toEqual([]);
    else expect(errors, `${name(block)} does not compile: fix it, or mark the fence \`partial\` if it is an excerpt`).toEqual([]);
  });

  it.each(jsonBlocks.map((block) => [`${name(block)}${block.path.endsWith('.contract.json') ? ' (a contract)' : ''}`, block] as const))('%s is JSON, and jtc check accepts a contract, or is marked partial', (_, block) => {
    const errors = errorsOf.get(block) ?? [];
    if (block.marks.includes('partial')) expect(errors, `${name(block)} is whole: drop the partial mark`).not.toEqual([]);
    else expect(errors, `${name(block)}: fix it, or mark the fence \`partial\` if it is an excerpt`).toEqual([]);
  });

  it(
    'exports the OTLP wiring of docs/observability.md under OTEL_SERVICE_NAME, flushed on SIGTERM',
    async () => {
      const wiring = codeBlocks.filter((block) => block.page === 'docs/observability.md' && block.text.includes('new OTLPTraceExporter('));
      expect(wiring.map(name)).toHaveLength(1);
      const emitted = join(project, 'out', relative(project, wiring[0]!.path)).replace(/\.ts$/, '.js');
      // A server's life in short: the block's runtime makes one call (a tool it does not serve still makes a span), then waits, as a server does, for its SIGTERM.
      const driver = join(project, 'otlp-wiring.mjs');
      writeFileSync(driver, `const { runtime } = await import(${JSON.stringify(pathToFileURL(emitted).href)});\nruntime.call('docs.wiring', {});\nsetInterval(() => {}, 60_000);\nconsole.log('called');\n`);
      const receiver = await otlpReceiver();
      const env = Object.fromEntries(Object.entries(process.env).filter(([variable]) => !variable.startsWith('OTEL_')));
      // The batch would wait ten minutes: what arrives came from the SIGTERM flush.
      const child = spawn(process.execPath, [driver], { cwd: project, env: { ...env, OTEL_SERVICE_NAME: 'docs-wiring', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '600000', OTEL_METRIC_EXPORT_INTERVAL: '600000' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
      child.stdout!.on('data', (chunk: Buffer) => void (chunk.toString().includes('called') && child.kill('SIGTERM')));
      const status = await new Promise<number | null>((done) => child.once('exit', done));
      receiver.server.close();
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
      const traces = receiver.received.filter((each) => each.path === '/v1/traces');
      expect(traces).toHaveLength(1);
      type Export = { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: { name: string }[] }[] }[] };
      const [resourceSpans] = (JSON.parse(traces[0]!.body.toString('utf8')) as Export).resourceSpans;
      expect(resourceSpans!.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'docs-wiring' } });
      expect(resourceSpans!.scopeSpans.flatMap((scope) => scope.spans).map((span) => span.name)).toEqual(['execute_tool']);
    },
    processTimeout,
  );

  const runnable = blocks.filter((block) => block.marks.includes('run'));
  it.each(runnable.map((block) => [name(block), block] as const))(
    '%s runs',
    (_, block) => {
      const emitted = join(project, 'out', relative(project, block.path)).replace(/\.ts$/, '.js');
      const result = spawnSync(process.execPath, [emitted], { cwd: project, encoding: 'utf8', timeout: processTimeout });
      expect({ block: name(block), status: result.status, stderr: result.stderr }).toEqual({ block: name(block), status: 0, stderr: '' });
    },
    processTimeout,
  );
});
