import { redisServerProblem } from '../../scripts/redis-server.js';

export { type RedisServer, redisServerProblem, startRedisServer } from '../../scripts/redis-server.js';

/**
 * Whether tests needing redis-server (`startRedisServer`: a private one per test, on a free
 * loopback port, never a system service) skip: on a contributor's machine without it they say so
 * loudly and skip; under CI they run and fail, since `.ci/run` installs Debian's package.
 */
export const skipWithoutRedis = redisServerProblem !== undefined && process.env['CI'] === undefined;
if (skipWithoutRedis) console.warn(`\n!!! TESTS NEEDING REDIS WERE NOT RUN: no redis-server (${redisServerProblem}). Install Debian's redis-server; CI runs them.\n`);
