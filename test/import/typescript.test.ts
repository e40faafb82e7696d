import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileContracts } from '../../src/compiler.js';
import { checkContract } from '../../src/contract/check-contract.js';
import { diffContracts } from '../../src/diff/diff-contracts.js';
import { importTools } from '../../src/import/import-tools.js';
import { readTypeScriptTools } from '../../src/import/typescript.js';

const corpus = readdirSync('fixtures/corpus').filter((name) => name.endsWith('.contract.json'));

/** Builds contracts, then imports each generated module with --from ts. */
async function roundTrip(files: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'jtc-import-ts-'));
  const sources = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const built = compileContracts(sources, { emit: 'ts' });
  expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  for (const module of built.files) writeFileSync(join(dir, module.path), module.text);
  return Promise.all(
    sources.map(async (source) => {
      const original = checkContract(source.text, source.file).contract!;
      const tools = await readTypeScriptTools(join(dir, `${original.name}.ts`));
      const [result] = importTools(tools, { outDir: dir });
      return { original, result: result!, imported: result?.text === undefined ? undefined : checkContract(result.text, 'imported.contract.json').contract };
    }),
  );
}

describe('jtc import --from ts', () => {
  it('gives every corpus contract back from its built module: same name, description, and schemas that accept the same values', async () => {
    const differences = (await roundTrip(corpus.map((name) => `fixtures/corpus/${name}`))).flatMap(({ original, result, imported }) =>
      imported === undefined
        ? [`${original.name}: ${result.status}: ${result.findings.map((f) => f.message).join('; ')}`]
        : [...(imported.description === original.description ? [] : [`${original.name}: description ${JSON.stringify(imported.description)}`]), ...diffContracts([original], [imported], false).map((d) => `${original.name}: ${d.message} at ${d.pointer}`)],
    );
    expect(differences).toEqual([]);
  }, 600_000);
});

describe('jtc import --from ts on declarations written by hand', () => {
  it('reads an XInput/XOutput pair with its JSDoc tags, derives the name and says so, and refuses a type with no exact schema', async () => {
    const results = importTools(await readTypeScriptTools('fixtures/import/sources/declarations.ts'), { outDir: 'contracts' });
    const [notes, maybe] = results;
    expect(notes!.status).toBe('imported');
    expect(JSON.parse(notes!.text!)).toEqual({
      name: 'notes_search',
      description: 'Finds notes by text.',
      input: {
        type: 'object',
        properties: {
          query: { description: 'What to look for.', type: 'string', minLength: 1, maxLength: 200 },
          limit: { type: 'integer', minimum: 1, default: 10 },
          sort: { type: 'string', enum: ['newest', 'oldest'] },
        },
        required: ['query'],
        additionalProperties: false,
      },
      output: { type: 'object', properties: { hits: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string', examples: ['Groceries'] } }, required: ['id', 'title'], additionalProperties: false } } }, required: ['hits'], additionalProperties: false },
    });
    expect(notes!.findings.map((f) => f.message)).toContain('no ToolContract<NotesSearchInput, NotesSearchOutput, "…"> declaration names the tool; its name is derived from NotesSearch');
    expect(maybe!.status).toBe('refused');
    expect(maybe!.findings[0]!.message).toBe('string | null: a union other than literal values has no exact schema in the subset');
    // Placed where the type stands in the declarations, as the report's file:line:col.
    const { file, line, column } = maybe!.findings[0]!;
    expect(
      readFileSync(file!, 'utf8')
        .split('\n')
        [line! - 1]!.slice(column! - 1),
    ).toMatch(/^string \| null/);
  });

  it('places a finding on a converted schema at the declaration it came from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-import-ts-'));
    const path = join(dir, 'bounds.ts');
    writeFileSync(path, ['/** Counts. */', 'export interface CountInput {', '  /** @maxLength 1.5 */', '  n: string;', '}', ''].join('\n'));
    const [count] = importTools(await readTypeScriptTools(path), { outDir: 'contracts' });
    expect(count!.status).toBe('refused');
    expect(count!.findings[0]).toMatchObject({ kind: 'error', file: path, line: 2, column: 1 });
  });
});
