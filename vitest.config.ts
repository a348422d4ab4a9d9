import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    pool: 'forks',
    // The tests wait on real servers, databases and sockets more than they compute: one file per core
    // (Vitest's default leaves one core free) ran the whole suite in 760 s on a 2-core machine, where
    // CI's run with one worker took 1,173 s. Each file has its own server, database (its own PostgreSQL database under
    // test:scale) and so its own hub site on Redis, so files never see each other.
    // At most four: each file of test:scale holds a pool of PostgreSQL connections.
    maxWorkers: Math.min(4, Math.max(2, availableParallelism())),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
