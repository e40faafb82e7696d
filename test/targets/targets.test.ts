import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/contract/check-contract.js';
import { checkContracts } from '../../src/contract/check-contracts.js';
import { discoverContracts } from '../../src/contract/discover.js';
import { openAiStrictProjection, anthropicStrictProjection } from '../../packages/runtime/src/targets/projections.js';
import { targetProfiles } from '../../src/targets/profiles/index.js';

interface Expected {
  code: string;
  line: number;
  column: number;
  pointer: string;
  target: string;
}

describe('fixtures/targets: one file per target code, checked with its target', () => {
  const expected = JSON.parse(readFileSync('fixtures/targets/expected.json', 'utf8')) as Record<string, Expected>;
  it.each(Object.entries(expected))('%s yields exactly its code at its position', (file, want) => {
    const { diagnostics } = checkContract(readFileSync(`fixtures/targets/${file}`, 'utf8'), file, { targets: [want.target] });
    expect(diagnostics.map(({ code, line, column, pointer }) => ({ code, line, column, pointer, target: want.target }))).toEqual([want]);
    expect(file.startsWith(want.code)).toBe(true);
  });

  it('gives nothing without --target', () => {
    for (const file of Object.keys(expected)) expect(checkContract(readFileSync(`fixtures/targets/${file}`, 'utf8'), file).diagnostics).toEqual([]);
  });
});

describe('every profile on the whole corpus, as written down in fixtures/targets/corpus-findings.json (reviewed)', () => {
  const written = JSON.parse(readFileSync('fixtures/targets/corpus-findings.json', 'utf8')) as Record<string, Record<string, string[]>>;
  const corpus = discoverContracts(['fixtures/corpus']);
  it('covers every profile', () => {
    expect(Object.keys(written)).toEqual([...targetProfiles.keys()]);
  });
  it.each([...targetProfiles.keys()])('%s', (profile) => {
    const found: Record<string, string[]> = {};
    for (const file of corpus) {
      const { diagnostics } = checkContract(readFileSync(file, 'utf8'), file.split('/').pop()!, { targets: [profile] });
      if (diagnostics.length > 0) found[file.split('/').pop()!.replace('.contract.json', '')] = diagnostics.map((d) => `${d.code} ${d.pointer}`);
    }
    expect(found).toEqual(written[profile]);
  });

  it('agree with the adapters: a contract refused under a strict profile is one the strict projection refuses', () => {
    for (const file of corpus) {
      const contract = JSON.parse(readFileSync(file, 'utf8')) as { input: Record<string, unknown> };
      const input = contract.input['type'] === undefined ? { type: 'object', ...contract.input } : contract.input;
      for (const [profile, project] of [
        ['openai-strict', openAiStrictProjection],
        ['anthropic-strict', anthropicStrictProjection],
      ] as const) {
        const refused = checkContract(readFileSync(file, 'utf8'), file, { targets: [profile] }).diagnostics.some((d) => d.code === 'JTC301');
        expect({ file, profile, refused }).toEqual({ file, profile, refused: !project(input).ok });
      }
    }
  });
});

describe('findings about the whole build, reported once at the tool that crosses', () => {
  const tool = (name: string, input: unknown = { type: 'object', properties: {}, additionalProperties: false }) => ({ file: `${name}.contract.json`, text: JSON.stringify({ name, description: 'D.', input, output: {} }) });
  const codesAt = (sources: { file: string; text: string }[], target: string) =>
    checkContracts(sources, { targets: [target] })
      .diagnostics.filter((d) => d.code === 'JTC302' || d.code === 'JTC300')
      .map((d) => [d.file, d.code]);

  it('at most 128 functions in one OpenAI request', () => {
    const sources = Array.from({ length: 129 }, (_, i) => tool(`t${String(i).padStart(3, '0')}`));
    expect(codesAt(sources, 'openai')).toEqual([['t128.contract.json', 'JTC302']]);
    expect(codesAt(sources.slice(0, 128), 'openai')).toEqual([]);
  });

  it('at most 20 strict tools and 24 optional parameters in one Anthropic request', () => {
    expect(
      codesAt(
        Array.from({ length: 21 }, (_, i) => tool(`t${String(i).padStart(2, '0')}`)),
        'anthropic-strict',
      ),
    ).toEqual([['t20.contract.json', 'JTC302']]);
    const optional = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }])), additionalProperties: false });
    expect(codesAt([tool('a', optional(10)), tool('b', optional(10)), tool('c', optional(5))], 'anthropic-strict')).toEqual([['c.contract.json', 'JTC302']]);
  });

  it('names that would meet once "." becomes "_" already give the same type names, which every build refuses', () => {
    const result = checkContracts([tool('a.b_c'), tool('a_b.c')], { targets: ['openai-strict'] });
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.file, d.code])).toEqual([['a_b.c.contract.json', 'JTC125']]);
  });
});

describe('MCP output roots', () => {
  const withOutput = (output: unknown) => JSON.stringify({ name: 'list.all', description: 'D.', input: { type: 'object' }, output });
  it('2025-11-25: a non-object output root travels as text only', () => {
    const { diagnostics } = checkContract(withOutput({ type: 'array' }), 'x', { targets: ['mcp-2025-11-25'] });
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([['JTC351', '/output']]);
    expect(diagnostics[0]!.message).toContain('returns its output as JSON text only');
  });
  it('2026-07-28: any root, with a word about older clients', () => {
    const { diagnostics } = checkContract(withOutput({ type: 'array' }), 'x', { targets: ['mcp-2026-07-28'] });
    expect(diagnostics[0]!.message).toContain('clients of 2025-11-25, where structuredContent must be an object, get it as JSON text only');
    expect(checkContract(withOutput({ type: 'object' }), 'x', { targets: ['mcp-2026-07-28'] }).diagnostics).toEqual([]);
  });
  it('refuses an input that is not an object', () => {
    const text = JSON.stringify({ name: 'list.all', description: 'D.', input: { type: 'array' }, output: {} });
    expect(
      checkContract(text, 'x', { targets: ['mcp-2025-11-25'] })
        .diagnostics.filter((d) => d.severity === 'error')
        .map((d) => [d.code, d.pointer]),
    ).toEqual([['JTC301', '/input/type']]);
  });
});
