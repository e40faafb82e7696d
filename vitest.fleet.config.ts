import { defineConfig } from 'vitest/config';

/**
 * `npm run test:fleet`: the fleet's tests (test/fleet/), several processes and a thousand calls
 * each, too slow for `npm test` (whose config leaves them out); .ci/run runs them after it. The
 * replicas run the runtime's build, as a user's would.
 */
export default defineConfig({
  test: {
    include: ['test/fleet/**/*.test.ts'],
    // As vitest.config.ts: no test may fail because the machine is busy; a hung test still ends.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    maxWorkers: 1,
  },
});
