import fc from 'fast-check';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuild } from '../../src/cli/build.js';

/**
 * Incremental builds give the bytes a clean build gives: random sequences of edits to contracts,
 * to the generated files and to the cache itself, an incremental build after each, compared byte
 * for byte with a clean build of the same contracts.
 */
const quiet = (): void => undefined;
const options = { emit: 'ts' as const, format: 'text' as const, strict: false, jobs: 1, targets: [] as string[] };

function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name !== '.jtc-cache')
      .sort()
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}

type Edit =
  | { kind: 'describe'; pick: number; text: string }
  | { kind: 'remove'; pick: number }
  | { kind: 'add'; pick: number; suffix: number }
  | { kind: 'rename'; pick: number }
  | { kind: 'break'; pick: number }
  | { kind: 'hand-edit-module'; pick: number }
  | { kind: 'touch-module'; pick: number }
  | { kind: 'corrupt-cache'; text: string }
  | { kind: 'exact'; on: boolean };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('describe' as const), pick: fc.nat(), text: fc.string({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), pick: fc.nat(), suffix: fc.nat({ max: 1000 }) }),
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('break' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('hand-edit-module' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('touch-module' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('corrupt-cache' as const), text: fc.constantFrom('', '{', '{"format":"json-tool-contracts build cache 1","generator":"x","entries":{}}', 'null', '[]') }),
  fc.record({ kind: fc.constant('exact' as const), on: fc.boolean() }),
);

/** A contract file's JSON, or undefined for one an earlier edit broke. */
function parsed(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function apply(step: Edit, dir: string, out: string, state: { exact: boolean }): void {
  const contracts = readdirSync(join(dir, 'contracts'))
    .filter((name) => name.endsWith('.contract.json'))
    .sort();
  const modules = readdirSync(out).filter((name) => name.endsWith('.ts') && name !== 'index.ts');
  const contractAt = (pick: number) => join(dir, 'contracts', contracts[pick % contracts.length]!);
  switch (step.kind) {
    case 'describe': {
      const path = contractAt(step.pick);
      const json = parsed(path);
      if (json !== undefined) writeFileSync(path, JSON.stringify({ ...json, description: `${json['description']} ${step.text}` }));
      return;
    }
    case 'remove':
      if (contracts.length > 1) rmSync(contractAt(step.pick));
      return;
    case 'add': {
      const json = parsed(contractAt(step.pick));
      if (json !== undefined) writeFileSync(join(dir, 'contracts', `added${step.suffix}.contract.json`), JSON.stringify({ ...json, name: `added.tool${step.suffix}` }));
      return;
    }
    case 'rename':
      renameSync(contractAt(step.pick), join(dir, 'contracts', `renamed-${contracts[step.pick % contracts.length]}`));
      return;
    case 'break':
      writeFileSync(contractAt(step.pick), '{ "name": ');
      return;
    case 'hand-edit-module':
      if (modules.length > 0) writeFileSync(join(out, modules[step.pick % modules.length]!), `${readFileSync(join(out, modules[step.pick % modules.length]!), 'utf8')}// edited by hand\n`);
      return;
    case 'touch-module':
      if (modules.length > 0) utimesSync(join(out, modules[step.pick % modules.length]!), new Date(), new Date(Date.now() + 5000));
      return;
    case 'corrupt-cache':
      writeFileSync(join(out, '.jtc-cache', 'entries.json'), step.text);
      return;
    case 'exact':
      state.exact = step.on;
      return;
  }
}

describe('incremental builds (property)', () => {
  it('give the same bytes and the same report as a clean build, after any sequence of edits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
        const dir = mkdtempSync(join(tmpdir(), 'jtc-cache-'));
        cpSync('fixtures/valid', join(dir, 'contracts'), { recursive: true });
        cpSync('fixtures/corpus', join(dir, 'contracts'), { recursive: true, filter: (src) => src.endsWith('corpus') || src.endsWith('.contract.json') });
        const out = join(dir, 'out');
        const state = { exact: false };
        expect(await runBuild([join(dir, 'contracts')], { ...options, out, exactNumbers: false }, quiet)).toBe(0);
        for (const [index, step] of edits.entries()) {
          apply(step, dir, out, state);
          const reports: string[][] = [[], []];
          const incremental = await runBuild([join(dir, 'contracts')], { ...options, out, exactNumbers: state.exact }, (text) => reports[0]!.push(text));
          const cleanOut = join(dir, `clean-${index}`);
          const clean = await runBuild([join(dir, 'contracts')], { ...options, out: cleanOut, exactNumbers: state.exact, cache: false }, (text) => reports[1]!.push(text));
          expect({ step, code: incremental }).toEqual({ step, code: clean });
          expect(
            reports[0]!
              .join('')
              .replace(/\d+ written, \d+ deleted, \d+ unchanged/, '…')
              .replaceAll(out, 'OUT'),
          ).toBe(
            reports[1]!
              .join('')
              .replace(/\d+ written, \d+ deleted, \d+ unchanged/, '…')
              .replaceAll(cleanOut, 'OUT'),
          );
          if (clean === 0) expect(snapshot(out)).toEqual(snapshot(cleanOut));
        }
      }),
      { numRuns: 12 },
    );
  });

  it('rewrite nothing and keep their cache, which git ignores, when nothing changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-cache-'));
    cpSync('fixtures/valid', join(dir, 'contracts'), { recursive: true });
    const out = join(dir, 'out');
    const build = () => runBuild([join(dir, 'contracts')], { ...options, out, exactNumbers: false }, quiet);
    await build();
    const entries = () => Object.keys((JSON.parse(readFileSync(join(out, '.jtc-cache', 'entries.json'), 'utf8')) as { entries: object }).entries);
    const before = entries();
    const mtimes = () =>
      readdirSync(out)
        .filter((n) => n.endsWith('.ts'))
        .map((n) => [n, readFileSync(join(out, n), 'utf8').length]);
    const files = mtimes();
    await build();
    expect(entries()).toEqual(before);
    expect(mtimes()).toEqual(files);
    expect(readFileSync(join(out, '.jtc-cache', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('stop, writing nothing, when another build wrote the folder after their cache was read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-cache-'));
    cpSync('fixtures/valid', join(dir, 'contracts'), { recursive: true });
    const out = join(dir, 'out');
    const build = (exactNumbers: boolean) => runBuild([join(dir, 'contracts')], { ...options, out, exactNumbers }, quiet);
    await build(true);
    // A default build starts and compiles; an exact build then reads the exact cache, which holds
    // every file, before the default build writes its files over them.
    const overwriting = build(false);
    const trusting = build(true);
    await expect(overwriting).resolves.toBe(0);
    await expect(trusting).rejects.toThrow(/another jtc build wrote here while this one ran; nothing was written/);
    const written = snapshot(out);
    // Run again, the exact build rebuilds what the default one left.
    await build(true);
    const clean = mkdtempSync(join(tmpdir(), 'jtc-clean-'));
    await runBuild([join(dir, 'contracts')], { ...options, out: clean, exactNumbers: true, cache: false }, quiet);
    expect(snapshot(out)).toEqual(snapshot(clean));
    expect(snapshot(out)).not.toEqual(written);
  });
});
