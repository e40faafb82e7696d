import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnosticCodes } from '../src/diagnostics/codes.js';

const readme = readFileSync('README.md', 'utf8');

describe('README', () => {
  const diagnosticsPage = readFileSync('docs/diagnostics.md', 'utf8');
  it.each(Object.keys(diagnosticCodes))('documents %s', (code) => {
    expect(diagnosticsPage).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
  });

  it('links every page of docs/', () => {
    for (const page of readdirSync('docs')) expect(readme).toContain(`](docs/${page})`);
  });

  it('keeps the two newcomer commands', () => {
    expect(readme).toContain('npm ci && npm run build && npx jtc build fixtures/valid fixtures/corpus -o generated');
    expect(readme).toContain('npm test');
  });
});

describe("the runtime's entry points", () => {
  const { exports } = JSON.parse(readFileSync('packages/runtime/package.json', 'utf8')) as { exports: Record<string, unknown> };
  /** What a user imports: every export but the internal one (the generated modules' support) and the manifest. */
  const entryPoints = Object.keys(exports)
    .filter((key) => key !== './internal' && key !== './package.json')
    .map((key) => `@json-tool-contracts/runtime${key.slice(1)}`);
  const runtimeReadme = readFileSync('packages/runtime/README.md', 'utf8');

  it.each(entryPoints)("the runtime package's README lists %s", (entry) => {
    expect(runtimeReadme).toMatch(new RegExp(`^- \`${entry.replaceAll('/', '\\/')}\`:`, 'm'));
  });

  it.each(entryPoints)('the README names %s', (entry) => {
    const subpath = entry.slice('@json-tool-contracts/runtime'.length);
    expect(readme).toContain(subpath === '' ? `\`${entry}\`` : `\`${subpath}\``);
  });
});

describe('README "How it is built"', () => {
  const block = /## How it is built[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const order = [...block.matchAll(/^(\S+?)\/?\s/gm)].map((match) => match[1]!);
  /** The stage of a file under src/: its folder, or the file itself at the top. */
  const stageOf = (file: string): string => {
    return path.relative('src', file).split(path.sep)[0]!;
  };
  const files = readdirSync('src', { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));

  it('lists every folder and top-level file of src/', () => {
    expect([...new Set(files.map(stageOf))].sort()).toEqual([...order].sort());
  });

  it.each(files)('%s imports only what the list puts above its own stage', (file) => {
    const stage = stageOf(file);
    const imports = [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)].map((match) => stageOf(path.join(path.dirname(file), match[1]!).replace(/\.js$/, '.ts')));
    for (const imported of imports) {
      if (imported !== stage) expect(order.indexOf(imported), `${file} imports ${imported}`).toBeLessThan(order.indexOf(stage));
    }
  });
});

describe('the runtime package', () => {
  const root = path.join('packages', 'runtime', 'src');
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const peers = JSON.parse(readFileSync('packages/runtime/package.json', 'utf8')).peerDependencies as Record<string, string>;

  it.each(files)('%s imports only the runtime package itself, Node and its optional peers', (file) => {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)) {
      if (specifier!.startsWith('.')) expect(path.relative(root, path.join(path.dirname(file), specifier!)), `${file} imports ${specifier}`).not.toMatch(/^\.\./);
      else expect(specifier!.startsWith('node:') || Object.keys(peers).some((peer) => specifier === peer || specifier!.startsWith(`${peer}/`)), `${file} imports ${specifier}`).toBe(true);
    }
  });
});
