import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The checker's cost is linear in the file, measured as work, never as time: V8's own execution
 * counters (precise block coverage: every function call and every block run) plus every generator
 * step (a `yield*` chain passes each value through every level above it, which block counters do
 * not see). A value nested 200 arrays deep must cost about what the same numbers cost flat.
 */
const measure = `
const GeneratorPrototype = Object.getPrototypeOf(function* () {}).prototype;
const next = GeneratorPrototype.next;
let steps = 0;
GeneratorPrototype.next = function (...args) { steps++; return next.apply(this, args); };
const { Session } = await import('node:inspector/promises');
const { checkContract } = await import(${JSON.stringify(pathToFileURL(resolve('dist/contract/check-contract.js')).href)});
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
const work = async (text) => {
  await session.post('Profiler.takePreciseCoverage');
  steps = 0;
  const { diagnostics } = checkContract(text, 'x.contract.json');
  const { result } = await session.post('Profiler.takePreciseCoverage');
  let blocks = 0;
  for (const script of result) if (script.url.includes('/dist/')) for (const f of script.functions) for (const range of f.ranges) blocks += range.count;
  return { work: blocks + steps, errors: diagnostics.filter((d) => d.severity === 'error').length };
};
const numbers = Array.from({ length: 2000 }, (_, i) => i).join(', ');
const nested = (depth) => '['.repeat(depth) + '[' + numbers + ']' + ']'.repeat(depth);
const contract = (keyword, value) => '{"name": "a.b", "description": "D.", "input": {"type": "object", "properties": {"v": {"' + keyword + '": ' + value + '}}}, "output": {}}';
const out = {};
for (const keyword of ['default', 'examples', 'enum']) {
  const wrap = (value) => (keyword === 'default' ? value : '[' + value + ']');
  out[keyword] = { flat: await work(contract(keyword, wrap(nested(0)))), deep: await work(contract(keyword, wrap(nested(200)))) };
}
console.log(JSON.stringify(out));
`;

describe('the checker is linear in the file (counted, not timed)', () => {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', measure], { encoding: 'utf8' });
  const found = JSON.parse(run.stdout || '{}') as Record<string, { flat: { work: number; errors: number }; deep: { work: number; errors: number } }>;

  it.each(['default', 'examples', 'enum'])('numbers nested deep in %s cost what they cost flat', (keyword) => {
    expect(run.stderr).toBe('');
    const { flat, deep } = found[keyword]!;
    expect([flat.errors, deep.errors]).toEqual([0, 0]);
    // 200 more arrays around 2,000 numbers; numbers × depth would be about 100 times the work.
    expect(deep.work / flat.work).toBeLessThan(1.5);
  });
});
