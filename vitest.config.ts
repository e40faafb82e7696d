import { configDefaults, defineConfig } from 'vitest/config';

/** Tests run on the runtime package's sources (its exports' source condition), not on its build. */
const sourceCondition = '@json-tool-contracts/source';

export default defineConfig({
  resolve: { conditions: [sourceCondition] },
  ssr: { resolve: { conditions: [sourceCondition] } },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // The fleet's tests are slow: `npm run test:fleet` (vitest.fleet.config.ts) runs them.
    exclude: [...configDefaults.exclude, 'test/fleet/**'],
    // A folder per run for the packed tarballs that several test files install (packed once).
    globalSetup: ['test/support/pack-folder.ts'],
    // Generous on purpose: no test may fail because the machine is busy (a busy 2-core machine runs
    // these process-level and property tests many times slower); a hung test still ends.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'threads',
    maxWorkers: 2,
  },
});
