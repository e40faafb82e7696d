import { describe, expect, it } from 'vitest';
import { driftOf } from '../../src/import/drift.js';
import { importTools } from '../../src/import/import-tools.js';
import { parseToolList, readTools } from '../../src/import/sources.js';

/**
 * `jtc import` and `--check` take time in proportion to the number of tools: 8k tools cost about
 * four times 2k, never sixteen (a check of each name against every earlier one did). Times are
 * compared within one run, never against a clock, and the bound is loose enough for a busy machine.
 */
const listOf = (count: number, offset = 0) => {
  const tools = Array.from({ length: count }, (_, i) => ({ name: `tool_${offset + i}`, description: `Tool ${i}.`, inputSchema: { type: 'object', properties: { q: { type: 'string', maxLength: 10 } }, required: ['q'] }, outputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }));
  return readTools(parseToolList(JSON.stringify({ tools }), 'tools.json'), 'tools.json').tools;
};

/** The import of `count` tools and the check of the same tools against what it gave, in milliseconds. */
function cost(count: number): number {
  const tools = listOf(count);
  const started = performance.now();
  const results = importTools(tools, { outDir: 'contracts' });
  const report = driftOf(
    results.map((result) => ({ file: `contracts/${result.file}`, text: result.text! })),
    tools,
    results,
    { dir: 'contracts' },
  );
  const ms = performance.now() - started;
  expect(report.ok && report.tools.length === count && report.tools.every((tool) => tool.status === 'unchanged')).toBe(true);
  return ms;
}

describe('jtc import at scale', () => {
  it('imports and checks 8k tools in about four times what 2k take (linear), well below sixteen (quadratic)', () => {
    cost(500); // warms the code up
    // Interleaved, the fastest of each: a busy moment slows one try, not the ratio.
    const [small, large] = [[], []] as [number[], number[]];
    for (let attempt = 0; attempt < 2; attempt++) {
      small.push(cost(2000));
      large.push(cost(8000));
    }
    expect(Math.min(...large) / Math.min(...small)).toBeLessThan(10);
  }, 600_000);
});
