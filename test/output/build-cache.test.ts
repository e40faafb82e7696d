import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuild } from '../../src/cli/build.js';
import { supportFingerprint } from '../../src/codegen/helpers.js';

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
  | { kind: 'exact'; on: boolean }
  | { kind: 'support'; shared: boolean };

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
  fc.record({ kind: fc.constant('support' as const), shared: fc.boolean() }),
);

/** A contract file's JSON, or undefined for one an earlier edit broke. */
function parsed(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function apply(step: Edit, dir: string, out: string, state: BuildState): void {
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
    case 'support':
      state.support = step.shared ? 'shared' : 'inline';
      return;
  }
}

/** The flags of the next build, which edits change. */
interface BuildState {
  exact: boolean;
  support: 'inline' | 'shared';
}

describe('incremental builds (property)', () => {
  it('give the same bytes and the same report as a clean build, after any sequence of edits (flags and the support layout included)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
        const dir = mkdtempSync(join(tmpdir(), 'jtc-cache-'));
        cpSync('fixtures/valid', join(dir, 'contracts'), { recursive: true });
        cpSync('fixtures/corpus', join(dir, 'contracts'), { recursive: true, filter: (src) => src.endsWith('corpus') || src.endsWith('.contract.json') });
        const out = join(dir, 'out');
        const state: BuildState = { exact: false, support: 'inline' };
        expect(await runBuild([join(dir, 'contracts')], { ...options, out, exactNumbers: false }, quiet)).toBe(0);
        for (const [index, step] of edits.entries()) {
          apply(step, dir, out, state);
          const reports: string[][] = [[], []];
          const incremental = await runBuild([join(dir, 'contracts')], { ...options, out, exactNumbers: state.exact, support: state.support }, (text) => reports[0]!.push(text));
          const cleanOut = join(dir, `clean-${index}`);
          const clean = await runBuild([join(dir, 'contracts')], { ...options, out: cleanOut, exactNumbers: state.exact, support: state.support, cache: false }, (text) => reports[1]!.push(text));
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

  it('with shared support, assemble from the modules they did not compile the support module a clean build writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-cache-'));
    cpSync('fixtures/corpus', join(dir, 'contracts'), { recursive: true, filter: (src) => src.endsWith('corpus') || src.endsWith('.contract.json') });
    const out = join(dir, 'out');
    const build = (target: string, cache: boolean) => runBuild([join(dir, 'contracts')], { ...options, out: target, exactNumbers: false, support: 'shared', cache }, quiet);
    expect(await build(out, true)).toBe(0);
    // One contract changes; the others' modules come from the cache, and so must what they need of the support module.
    const path = join(dir, 'contracts', 'fs.write_file.contract.json');
    writeFileSync(path, JSON.stringify({ ...(JSON.parse(readFileSync(path, 'utf8')) as object), description: 'Changed.' }));
    const reports: string[] = [];
    expect(await runBuild([join(dir, 'contracts')], { ...options, out, exactNumbers: false, support: 'shared' }, (text) => reports.push(text))).toBe(0);
    expect(reports.join('')).toMatch(/1 written, 0 deleted, 21 unchanged/);
    expect(await build(join(dir, 'clean'), false)).toBe(0);
    expect(snapshot(out)).toEqual(snapshot(join(dir, 'clean')));
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

/**
 * Entries edited after the build that wrote them: by hand (the seal no longer matches), and forged
 * with a valid seal, as someone who read the source could. Either way a build must do what a clean
 * build does: an entry may only spare a compile.
 */
describe('tampered cache entries', () => {
  type Entry = { diagnostics: Record<string, unknown>[]; contract?: Record<string, unknown>; files: Record<string, unknown>[] };
  /** Each edit, and whether the entry's claims give it away even under a valid seal. */
  const tampers: [string, (entry: Entry) => void, 'claims' | 'seal'][] = [
    ['a module left out of its files', (e) => e.files.pop(), 'claims'],
    [
      'a module file renamed',
      (e) =>
        e.files.forEach((f) => {
          f['path'] = `x${String(f['path'])}`;
        }),
      'claims',
    ],
    ['the contract left out', (e) => delete e.contract, 'claims'],
    ['the contract renamed', (e) => e.contract !== undefined && (e.contract['name'] = 'renamed.tool'), 'claims'],
    ['the contract named with a path', (e) => e.contract !== undefined && (e.contract['name'] = '../escaped'), 'claims'],
    ['the contract without its position', (e) => e.contract !== undefined && delete e.contract['namePosition'], 'claims'],
    ['the contract of another file', (e) => e.contract !== undefined && (e.contract['file'] = 'elsewhere.contract.json'), 'claims'],
    [
      'a warning made an error',
      (e) =>
        e.diagnostics.forEach((d) => {
          d['severity'] = 'error';
        }),
      'claims',
    ],
    ['an error added', (e) => e.diagnostics.push({ code: 'JTC104', severity: 'error', file: e.contract?.['file'], line: 1, column: 1, pointer: '', message: 'added' }), 'claims'],
    ['a diagnostic that is not one', (e) => e.diagnostics.push({ code: 'JTC104' }), 'claims'],
    [
      'an unknown code',
      (e) =>
        e.diagnostics.forEach((d) => {
          d['code'] = 'JTC999';
        }),
      'claims',
    ],
    ['a warning removed', (e) => e.diagnostics.splice(0), 'seal'],
    [
      'a message reworded',
      (e) =>
        e.diagnostics.forEach((d) => {
          d['message'] = 'reworded';
        }),
      'seal',
    ],
  ];
  const cases = tampers.flatMap(([name, edit, caughtBy]) => [[`${name}, by hand`, edit, false] as const, ...(caughtBy === 'claims' ? [[`${name}, forged with a valid seal`, edit, true] as const] : [])]);

  function tamper(out: string, edit: (entry: Entry) => void, reseal: boolean): void {
    const path = join(out, '.jtc-cache', 'entries.json');
    const file = JSON.parse(readFileSync(path, 'utf8')) as { entries: Record<string, { seal: string; entry: string }> };
    for (const [key, sealed] of Object.entries(file.entries)) {
      const entry = JSON.parse(sealed.entry) as Entry;
      edit(entry);
      const text = JSON.stringify(entry);
      file.entries[key] = { seal: reseal ? createHash('sha256').update(key).update('\0').update(text).digest('hex') : sealed.seal, entry: text };
    }
    writeFileSync(path, JSON.stringify(file));
  }

  it.each(cases)('%s: the build does what a clean build does', async (_, edit, reseal) => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-tamper-'));
    cpSync('fixtures/valid', join(dir, 'contracts'), { recursive: true });
    cpSync('fixtures/warnings/JTC201-min-length-on-integer.contract.json', join(dir, 'contracts', 'warns.contract.json'));
    const out = join(dir, 'out');
    const build = async (target: string, strict: boolean, cache: boolean) => {
      const report: string[] = [];
      const code = await runBuild([join(dir, 'contracts')], { ...options, out: target, exactNumbers: false, strict, cache }, (text) => report.push(text));
      return {
        code,
        report: report
          .join('')
          .replace(/\d+ written, \d+ deleted, \d+ unchanged/, '…')
          .replaceAll(target, 'OUT'),
      };
    };
    await build(out, false, true);
    tamper(out, edit, reseal);
    // --strict first: it fails on the warning, so it writes nothing and leaves the tampered cache for the second build.
    expect(await build(out, true, true)).toEqual(await build(join(dir, 'clean-strict'), true, false));
    expect(await build(out, false, true)).toEqual(await build(join(dir, 'clean'), false, false));
    expect(snapshot(out)).toEqual(snapshot(join(dir, 'clean')));
  });
});

describe('the cache key', () => {
  it("names the runtime's support code beside the version, so a cache written beside other helpers is another generator's", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'jtc-cache-key-')), 'out');
    await runBuild(['fixtures/valid'], { ...options, out, exactNumbers: false, cache: true }, quiet);
    const { generator } = JSON.parse(readFileSync(join(out, '.jtc-cache', 'entries.json'), 'utf8')) as { generator: string };
    expect(supportFingerprint()).toMatch(/^[0-9a-f]{16}$/);
    expect(generator.split(' ')).toContain(supportFingerprint());
  });
});
