import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that share a worker's module cache: the server, cluster, contract and script tests. Each
 * starts its own servers and databases and leaves no page globals, so importing the server once per
 * worker instead of once per file is all that changes (it was 97 s of the server tests' 488 s on a
 * 2-core machine, 8 s without). A file that mocks a module (vi.mock) must load it fresh, and the
 * page and worker tests each build a page of globals (happy-dom, fake IndexedDB): those stay isolated.
 */
const SHARED = [
  'tests/server/**',
  'tests/cluster/**',
  'tests/contract/**',
  'tests/scripts/**',
  'tests/bench/**',
  'tests/docs/**',
];
const MOCKING = ['tests/server/api/conversation-changed.test.ts'];
const TEST_FILES = ['tests/**/*.test.ts', 'tests/**/*.test.tsx'];
const inFolders = (folders: string[]) => folders.flatMap((f) => [`${f}/*.test.ts`, `${f}/*.test.tsx`]);

export default defineConfig({
  test: {
    pool: 'forks',
    // The tests wait on real servers, databases and sockets more than they compute: one file per core
    // (Vitest's default leaves one core free) ran the whole suite in 760 s on a 2-core machine, where
    // CI's run with one worker took 1,173 s. Each file has its own server, database (its own PostgreSQL database under
    // test:scale) and so its own hub site on Redis, so files never see each other.
    // At most four: each file of test:scale holds a pool of PostgreSQL connections.
    maxWorkers: Math.min(4, Math.max(2, availableParallelism())),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: inFolders(SHARED), exclude: MOCKING, isolate: false },
      },
      {
        extends: true,
        test: { name: 'isolated', include: TEST_FILES, exclude: [...inFolders(SHARED), 'node_modules/**'] },
      },
      { extends: true, test: { name: 'mocking', include: MOCKING } },
    ],
  },
});
