import { defineConfig } from 'vitest/config';

/** Tests run on the runtime package's sources (its exports' source condition), not on its build. */
const sourceCondition = '@json-tool-contracts/source';

export default defineConfig({
  resolve: { conditions: [sourceCondition] },
  ssr: { resolve: { conditions: [sourceCondition] } },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'threads',
    maxWorkers: 2,
  },
});
