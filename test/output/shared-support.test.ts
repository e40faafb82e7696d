import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compileContracts, type GeneratedFile, type SourceText } from '../../src/compiler.js';
import { discoverContracts } from '../../src/contract/discover.js';
import type { LoadedContract } from '../support/load-module.js';
import { typecheck } from '../support/typecheck.js';

const sourcesOf = (folder: string): SourceText[] => discoverContracts([folder]).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
const nameOf = (source: SourceText): string => (JSON.parse(source.text as string) as { name: string }).name;

/** Writes a build's files; TypeScript modules also as ESM JavaScript beside them, so that they load as they import each other. */
function writeBuild(files: readonly GeneratedFile[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'jtc-shared-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const file of files) {
    writeFileSync(join(dir, file.path), file.text);
    if (file.path.endsWith('.ts')) writeFileSync(join(dir, file.path.replace(/\.ts$/, '.js')), ts.transpileModule(file.text, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText);
  }
  return dir;
}

/** A schema or a result as text, each JsonNumber (a frozen object of the module that made it) as its decimal, each bigint as its digits. */
const comparable = (value: unknown): string => JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : typeof item === 'object' && item !== null && 'decimal' in item ? `JsonNumber ${String(item.decimal)}` : item));

const load = async (dir: string, file: string): Promise<LoadedContract> => ((await import(pathToFileURL(join(dir, file)).href)) as { contract: LoadedContract }).contract;

/**
 * Contract properties, descriptions and enum members named as the support module's exports: a name
 * that only looks used must not be imported (strict TypeScript refuses an unused import), above all
 * one the module could import but does not use (`copyJsonValue`, `describeThrown`: the support's own).
 */
const lookalikes: SourceText = {
  file: 'lookalikes.contract.json',
  text: JSON.stringify({
    name: 'lookalike.names',
    description: 'Properties named like the support code: copyJsonValue(x), describeThrown, isPlainObject, hostJsonSchema.',
    input: {
      type: 'object',
      properties: {
        issue: { type: 'string' },
        copyJsonValue: { type: 'string', description: 'describeThrown(error) /* validateWith */' },
        describeThrown: { type: 'object', properties: { collectIssues: { type: 'integer' } } },
        'copyJsonValue(': { type: 'null' },
        PathSegment: { type: 'object' },
        maxIssues: { enum: ['describeThrown', 'copyJsonValue'] },
      },
      required: ['issue'],
      additionalProperties: false,
    },
    output: { type: 'object', properties: { createValidator: { type: 'string', description: 'validateWith(checkInput) // objectPrototypeIsClean' } } },
  }),
};

/** Numbers no double holds: exact mode keeps them (JsonNumber literals, the schema shown to hosts), default mode rounds them. */
const preciseNumbers: SourceText = {
  file: 'precise.contract.json',
  text: '{"name": "precise.numbers", "description": "Bounds past f64.", "input": {"type": "object", "properties": {"n": {"type": "number", "maximum": 0.30000000000000000001}, "id": {"enum": [1, 12345678901234567890123]}}}, "output": {}}',
};

/** Samples of the two contracts above, which have no samples file. */
const handWritten = new Map<SourceText, Record<'input' | 'output', Record<'valid' | 'invalid', unknown[]>>>([
  [lookalikes, { input: { valid: [{ issue: 'x', maxIssues: 'copyJsonValue', describeThrown: { collectIssues: 1 } }], invalid: [{}, { issue: 1, PathSegment: [] }, { issue: 'x', copyJsonValue: 1 }] }, output: { valid: [{}], invalid: [{ createValidator: 2 }] } }],
  [preciseNumbers, { input: { valid: [{ n: 0.25 }, { id: 2 }], invalid: [{ n: 0.5 }, { id: 3 }, { n: '0.1' }] }, output: { valid: [{}, []], invalid: [] } }],
]);

describe('--support shared', () => {
  it('writes one support module beside the modules and the index, and each module imports it by relative path and nothing else', () => {
    const ts = compileContracts(sourcesOf('fixtures/valid'), { support: 'shared' });
    expect(ts.diagnostics).toEqual([]);
    expect(ts.files.map((f) => f.path)).toEqual(['adversarial.names.ts', 'index.ts', 'jtc-support.ts', 'limits.at_limit.ts', 'math.add.ts', 'notes.search.ts']);
    const js = compileContracts(sourcesOf('fixtures/valid'), { support: 'shared', emit: 'js' });
    expect(js.files.map((f) => f.path)).toEqual(['adversarial.names.d.mts', 'adversarial.names.mjs', 'index.d.mts', 'index.mjs', 'jtc-support.d.mts', 'jtc-support.mjs', 'limits.at_limit.d.mts', 'limits.at_limit.mjs', 'math.add.d.mts', 'math.add.mjs', 'notes.search.d.mts', 'notes.search.mjs']);
    for (const file of [...ts.files, ...js.files]) {
      const specifiers = [...file.text.matchAll(/^(?:import|export)[^\n]* from "([^"]+)";$/gm)].map((m) => m[1]);
      if (file.path.startsWith('jtc-support.')) expect(specifiers).toEqual([]);
      else if (!file.path.startsWith('index.')) expect(new Set(specifiers)).toEqual(new Set([file.path.endsWith('.ts') ? './jtc-support.js' : './jtc-support.mjs']));
    }
    const support = ts.files.find((f) => f.path === 'jtc-support.ts')!.text;
    expect(support).toMatch(/^\/\/ Generated by json-tool-contracts \d+\.\d+\.\d+\. Do not edit/);
    expect(support).not.toMatch(/^import /m);
  });

  it('leaves the default build as it was: no support module, modules that import nothing', () => {
    const inline = compileContracts(sourcesOf('fixtures/valid'));
    expect(compileContracts(sourcesOf('fixtures/valid'), { support: 'inline' }).files).toEqual(inline.files);
    expect(inline.files.map((f) => f.path)).not.toContain('jtc-support.ts');
    for (const file of inline.files) if (file.path !== 'index.ts') expect(file.text).not.toMatch(/^import /m);
  });

  it('carries exactly the helpers the modules would carry inline: the same declarations, nothing more', () => {
    const declared = (text: string): string[] => [...text.matchAll(/^(?:export )?(?:function|const|type|interface) (\w+)/gm)].map((m) => m[1]!);
    for (const exactNumbers of [false, true]) {
      for (const source of [...sourcesOf('fixtures/corpus'), ...sourcesOf('fixtures/valid')]) {
        const inline = compileContracts([source], { exactNumbers }).files.find((f) => f.path === `${nameOf(source)}.ts`)!.text;
        const shared = compileContracts([source], { exactNumbers, support: 'shared' }).files;
        const split = [...declared(shared.find((f) => f.path === 'jtc-support.ts')!.text), ...declared(shared.find((f) => f.path === `${nameOf(source)}.ts`)!.text)];
        expect({ contract: nameOf(source), exactNumbers, names: split.sort() }).toEqual({ contract: nameOf(source), exactNumbers, names: declared(inline).sort() });
      }
    }
  });

  it('is deterministic: the same bytes whatever the order of the contracts', () => {
    const sources = sourcesOf('fixtures/corpus');
    const forward = compileContracts(sources, { support: 'shared' }).files;
    expect(compileContracts([...sources].reverse(), { support: 'shared' }).files).toEqual(forward);
  });

  it.each([false, true])('type-checks under strict TypeScript, both emits (exact numbers: %s)', (exactNumbers) => {
    const sources = [...sourcesOf('fixtures/corpus'), ...sourcesOf('fixtures/valid'), ...sourcesOf('fixtures/warnings'), lookalikes, preciseNumbers];
    const ts = compileContracts(sources, { support: 'shared', exactNumbers });
    expect(ts.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const tsDir = writeBuild(ts.files);
    expect(typecheck(ts.files.map((f) => join(tsDir, f.path)))).toEqual([]);
    const js = compileContracts(sources, { support: 'shared', exactNumbers, emit: 'js' });
    const jsDir = writeBuild(js.files);
    writeFileSync(
      join(jsDir, 'use.ts'),
      'import { contracts, mathAdd, type Contracts, type MathAddInput } from "./index.mjs";\nimport type { ValidationIssue } from "./math.add.mjs";\nconst input: MathAddInput = { left: 1, right: 2 };\nexport const ok: boolean = mathAdd.input.is(input);\nexport const same: Contracts["mathAdd"] = contracts.mathAdd;\nexport const issues: readonly ValidationIssue[] = mathAdd.input.validate({}).ok ? [] : [];\n',
    );
    expect(typecheck([join(jsDir, 'use.ts'), ...js.files.filter((f) => f.path.endsWith('.d.mts')).map((f) => join(jsDir, f.path))])).toEqual([]);
  });

  it.each([
    ['ts', false],
    ['ts', true],
    ['js', false],
    ['js', true],
  ] as const)('gives modules that judge every corpus sample as the inline ones do (--emit %s, exact numbers: %s)', async (emit, exactNumbers) => {
    const sources = [...sourcesOf('fixtures/corpus'), lookalikes, preciseNumbers];
    const inlineDir = writeBuild(compileContracts(sources, { emit, exactNumbers }).files);
    const sharedDir = writeBuild(compileContracts(sources, { emit, exactNumbers, support: 'shared' }).files);
    const extension = emit === 'ts' ? 'js' : 'mjs';
    let judged = 0;
    for (const source of sources) {
      const file = `${nameOf(source)}.${extension}`;
      const [inline, shared] = [await load(inlineDir, file), await load(sharedDir, file)];
      expect(comparable(shared.inputSchema)).toBe(comparable(inline.inputSchema));
      expect(comparable(shared.outputSchema)).toBe(comparable(inline.outputSchema));
      expect(shared.input['~standard'].jsonSchema.input({ target: 'draft-07' })).toEqual(inline.input['~standard'].jsonSchema.input({ target: 'draft-07' }));
      const samples = handWritten.get(source) ?? (JSON.parse(readFileSync(source.file.replace('.contract.json', '.samples.json'), 'utf8')) as Record<'input' | 'output', Record<'valid' | 'invalid', unknown[]>>);
      for (const side of ['input', 'output'] as const) {
        for (const sample of [...samples[side].valid, ...samples[side].invalid]) {
          expect(shared[side].is(sample)).toBe(inline[side].is(sample));
          expect(comparable(shared[side].validate(sample))).toBe(comparable(inline[side].validate(sample)));
          judged++;
        }
        for (const sample of samples[side].invalid) expect(shared[side].is(sample)).toBe(false);
      }
    }
    expect(judged).toBeGreaterThan(200);
  });

  it('writes no support module for a build of no contracts', () => {
    expect(compileContracts([], { support: 'shared' }).files.map((f) => f.path)).toEqual(['index.ts']);
  });
});
