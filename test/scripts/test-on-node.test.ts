import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * `npm run test:node -- <major>` (scripts/test-on-node.js), which .ci/run runs for 22 and 24: here
 * on one small test file of the runtime, on Node 22 (tools/node22, installed on first use).
 */
describe.runIf(process.platform === 'linux' && process.arch === 'x64')('scripts/test-on-node.js', () => {
  // vitest's report without colours, whatever the vitest running this one sets.
  const { FORCE_COLOR: _, ...plain } = process.env;
  const run = (...args: string[]) => {
    const result = spawnSync(process.execPath, ['scripts/test-on-node.js', ...args], { encoding: 'utf8', timeout: 600_000, env: { ...plain, NO_COLOR: '1' } });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('runs the vitest files it is given on that Node, and says which', () => {
    const result = run('22', 'packages/runtime/test/core/envelope.test.ts');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^test-on-node: packages\/runtime\/test\/core\/envelope\.test\.ts on Node v22\.\d+\.\d+ \(/m);
    expect(result.stdout).toMatch(/Test Files\s+1 passed \(1\)/);
    // vitest's own failure is the script's: here, no test file where one was named.
    expect(run('22', 'packages/runtime/test/core/no-such-file.test.ts').status).toBe(1);
  });

  it('refuses a major without a Node, and no major, before running anything', () => {
    expect(run('21')).toMatchObject({ status: 1, stdout: '', stderr: expect.stringMatching(/^test-on-node: there is no tools\/node21/) });
    expect(run()).toMatchObject({ status: 2, stdout: '', stderr: expect.stringMatching(/^usage: node scripts\/test-on-node\.js <major>/) });
  });
});
