import { Ajv } from 'ajv';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProjectOptions, findProjectConfig, findProjectConfigsBelow, formatConfigProblem, loadProjectConfig, projectConfigSchema, readProjectConfig, searchProjectConfig } from '../../src/config/project-config.js';

/** A folder tree: `.git` marks a repository's root, `jtc.config.json` files where the test puts them. */
function tree(): { root: string; repo: string; deep: string } {
  const root = mkdtempSync(join(tmpdir(), 'jtc-config-'));
  const repo = join(root, 'repo');
  const deep = join(repo, 'packages', 'tools', 'contracts');
  mkdirSync(deep, { recursive: true });
  mkdirSync(join(repo, '.git'));
  return { root, repo, deep };
}

describe('findProjectConfig', () => {
  it('takes the nearest jtc.config.json from the folder upward', () => {
    const { repo, deep } = tree();
    expect(findProjectConfig(deep)).toBeUndefined();
    writeFileSync(join(repo, 'jtc.config.json'), '{}');
    expect(findProjectConfig(deep)).toBe(join(repo, 'jtc.config.json'));
    writeFileSync(join(repo, 'packages', 'tools', 'jtc.config.json'), '{}');
    expect(findProjectConfig(deep)).toBe(join(repo, 'packages', 'tools', 'jtc.config.json'));
    expect(findProjectConfig(repo)).toBe(join(repo, 'jtc.config.json'));
  });

  it('stops at the folder holding .git: a configuration outside the repository never applies', () => {
    const { root, repo, deep } = tree();
    writeFileSync(join(root, 'jtc.config.json'), '{}');
    expect(findProjectConfig(deep)).toBeUndefined();
    expect(findProjectConfig(repo)).toBeUndefined();
    expect(findProjectConfig(root)).toBe(join(root, 'jtc.config.json'));
  });
});

describe('searchProjectConfig', () => {
  it('stops at a project root without .git: a folder holding package.json, whose own jtc.config.json still counts', () => {
    const root = mkdtempSync(join(tmpdir(), 'jtc-config-'));
    const project = join(root, 'downloads', 'tools');
    mkdirSync(join(project, 'contracts'), { recursive: true });
    writeFileSync(join(root, 'jtc.config.json'), '{"out": "../outside"}');
    writeFileSync(join(project, 'package.json'), '{}');
    expect(searchProjectConfig(join(project, 'contracts'), '/nowhere')).toEqual({ file: undefined, stoppedAt: project, boundary: 'package.json' });
    expect(searchProjectConfig(join(root, 'downloads'), '/nowhere')).toEqual({ file: join(root, 'jtc.config.json') });
    writeFileSync(join(project, 'jtc.config.json'), '{}');
    expect(searchProjectConfig(join(project, 'contracts'), '/nowhere')).toEqual({ file: join(project, 'jtc.config.json') });
  });

  it('never reaches the home folder from below it, and says where it stopped', () => {
    const home = mkdtempSync(join(tmpdir(), 'jtc-home-'));
    const scratch = join(home, 'scratch', 'contracts');
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(home, 'jtc.config.json'), '{}');
    expect(searchProjectConfig(scratch, home)).toEqual({ file: undefined, stoppedAt: home, boundary: 'home folder' });
    expect(findProjectConfig(scratch, home)).toBeUndefined();
    // Started there, the home folder's own file applies, as any folder's does.
    expect(findProjectConfig(home, home)).toBe(join(home, 'jtc.config.json'));
    writeFileSync(join(home, 'scratch', 'jtc.config.json'), '{}');
    expect(findProjectConfig(scratch, home)).toBe(join(home, 'scratch', 'jtc.config.json'));
    expect(searchProjectConfig('/', home)).toEqual(existsSync('/jtc.config.json') ? { file: '/jtc.config.json' } : { file: undefined, stoppedAt: '/', boundary: existsSync('/package.json') ? 'package.json' : existsSync('/.git') ? '.git' : 'file system root' });
  });
});

describe('findProjectConfigsBelow', () => {
  it('finds every jtc.config.json in and under a folder, as contracts are searched: not in node_modules or dot-folders', () => {
    const { repo } = tree();
    for (const folder of ['', 'packages/tools', 'packages/web/nested', 'node_modules/dep', '.cache', 'packages/.hidden']) {
      mkdirSync(join(repo, folder), { recursive: true });
      writeFileSync(join(repo, folder, 'jtc.config.json'), '{}');
    }
    mkdirSync(join(repo, 'packages/web/jtc.config.json/inner'), { recursive: true });
    expect(findProjectConfigsBelow(repo)).toEqual([join(repo, 'jtc.config.json'), join(repo, 'packages/tools/jtc.config.json'), join(repo, 'packages/web/nested/jtc.config.json')]);
    expect(findProjectConfigsBelow(join(repo, 'packages/web'))).toEqual([join(repo, 'packages/web/nested/jtc.config.json')]);
    expect(findProjectConfigsBelow(join(repo, 'missing'))).toEqual([]);
  });
});

describe('readProjectConfig', () => {
  it('gives every field, paths resolved against the file, defaults where the file is silent', () => {
    const text = JSON.stringify({ $schema: './schema.json', contracts: ['contracts', '../shared/a.contract.json'], out: 'gen', emit: 'js', support: 'shared', exactNumbers: true, strict: true, targets: ['openai', 'gemini', 'openai'] });
    expect(readProjectConfig('/repo/tools/jtc.config.json', text)).toEqual({
      file: '/repo/tools/jtc.config.json',
      options: { contracts: ['/repo/tools/contracts', '/repo/shared/a.contract.json'], out: '/repo/tools/gen', emit: 'js', support: 'shared', exactNumbers: true, strict: true, targets: ['openai', 'gemini'] },
      problems: [],
    });
    expect(readProjectConfig('/repo/jtc.config.json', '{}')).toEqual({ file: '/repo/jtc.config.json', options: defaultProjectOptions, problems: [] });
    expect(defaultProjectOptions).toEqual({ emit: 'ts', support: 'inline', exactNumbers: false, strict: false, targets: [] });
  });

  it('reports every problem with its line, column and pointer, in file order, and keeps what was right', () => {
    const text = ['{', '  "contracts": "contracts",', '  "emit": "mjs", // note', '  "outt": 1,', '  "strict": "yes",', '  "exactNumbers": true,', '  "targets": ["openai", 3, "claude"],', '  "out": "",', '  "$schema": 7,', '  "toString": 1,', '}'].join('\n');
    const { options, problems } = readProjectConfig('/p/jtc.config.json', text);
    expect(problems.map(({ line, column, pointer, message }) => ({ at: `${line}:${column}`, pointer, message }))).toEqual([
      { at: '2:16', pointer: '/contracts', message: 'expected a non-empty array of paths, found "contracts"' },
      { at: '3:11', pointer: '/emit', message: 'expected one of ts, js, found "mjs"' },
      { at: '3:18', pointer: '', message: 'comments are not JSON' },
      { at: '4:3', pointer: '/outt', message: 'unknown field "outt"' },
      { at: '5:13', pointer: '/strict', message: 'expected true or false, found "yes"' },
      { at: '7:25', pointer: '/targets/1', message: 'expected one of mcp-2025-11-25, mcp-2026-07-28, openai-strict, openai, anthropic-strict, anthropic, gemini, gemini-parameters, found 3' },
      { at: '7:28', pointer: '/targets/2', message: expect.stringMatching(/^expected one of .*, found "claude"$/) as unknown },
      { at: '8:10', pointer: '/out', message: 'expected a path (a non-empty string), found ""' },
      { at: '9:14', pointer: '/$schema', message: 'expected a string, found 7' },
      { at: '10:3', pointer: '/toString', message: 'unknown field "toString"' },
      { at: '10:16', pointer: '', message: 'trailing comma before "}"' },
    ]);
    expect(options).toEqual({ ...defaultProjectOptions, exactNumbers: true });
    expect(formatConfigProblem(problems[3]!, 'jtc.config.json')).toBe('jtc.config.json:4:3 - error: unknown field "outt" at /outt (the fields are $schema, contracts, out, emit, support, exactNumbers, strict, targets)');
  });

  it('with contractsMustExist (the language server), reports a contracts path that does not exist where it is written', () => {
    const { repo } = tree();
    mkdirSync(join(repo, 'contracts'));
    const file = join(repo, 'jtc.config.json');
    const text = '{\n  "contracts": ["contracts", "contractz"],\n  "strict": true\n}\n';
    expect(readProjectConfig(file, text)).toMatchObject({ options: { contracts: [join(repo, 'contracts'), join(repo, 'contractz')] }, problems: [] });
    const checked = readProjectConfig(file, text, { contractsMustExist: true });
    expect(checked.problems).toEqual([{ file, line: 2, column: 30, pointer: '/contracts/1', message: 'no such file or folder', hint: 'jtc check and jtc build stop on it: create it, or correct the path' }]);
    // The field keeps its default; the others apply.
    expect(checked.options).toEqual({ ...defaultProjectOptions, strict: true });
  });

  it('refuses what is not one JSON object, and a duplicate field', () => {
    expect(readProjectConfig('/p/jtc.config.json', '[]').problems).toMatchObject([{ line: 1, column: 1, message: 'the project configuration must be one JSON object, found an array' }]);
    expect(readProjectConfig('/p/jtc.config.json', '').problems).toMatchObject([{ line: 1, column: 1, message: 'expected a JSON value, found the end of the file' }]);
    expect(readProjectConfig('/p/jtc.config.json', '{"strict": true, "strict": false}').problems).toMatchObject([{ line: 1, column: 18, pointer: '/strict', message: 'duplicate key "strict", first defined at 1:2' }]);
  });
});

describe('loadProjectConfig', () => {
  it('finds and reads the file, and turns an unreadable one into a problem', () => {
    const { repo, deep } = tree();
    expect(loadProjectConfig(deep)).toBeUndefined();
    writeFileSync(join(repo, 'jtc.config.json'), '{"out": "generated"}');
    expect(loadProjectConfig(deep)).toEqual({ file: join(repo, 'jtc.config.json'), options: { ...defaultProjectOptions, out: join(repo, 'generated') }, problems: [] });
    mkdirSync(join(deep, 'jtc.config.json'));
    expect(loadProjectConfig(deep)?.problems).toEqual([{ file: join(deep, 'jtc.config.json'), line: 1, column: 1, pointer: '', message: 'cannot read the project configuration: is a folder where the project configuration belongs; move or remove it' }]);
  });
});

describe('schema/jtc.config.schema.json', () => {
  const committed = JSON.parse(readFileSync('schema/jtc.config.schema.json', 'utf8')) as Record<string, unknown>;

  it('is the schema built from the field table (npm run editor-schema writes it)', () => {
    expect(committed).toEqual(projectConfigSchema());
  });

  it('accepts and refuses what the reader does', () => {
    const validate = new Ajv({ strict: true }).compile(committed);
    const samples = [
      '{}',
      '{"$schema": "x", "contracts": ["a", "b"], "out": "o", "emit": "js", "exactNumbers": false, "strict": true, "targets": ["openai-strict", "mcp-2025-11-25"]}',
      '{"contracts": []}',
      '{"contracts": [""]}',
      '{"out": ""}',
      '{"emit": "mjs"}',
      '{"strict": 1}',
      '{"exactNumbers": null}',
      '{"targets": ["claude"]}',
      '{"targets": "openai"}',
      '{"$schema": 1}',
      '{"output": "o"}',
      '[]',
    ];
    for (const text of samples) expect({ text, valid: validate(JSON.parse(text)) }).toEqual({ text, valid: readProjectConfig('/p/jtc.config.json', text).problems.length === 0 });
  });
});
