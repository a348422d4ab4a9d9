import { defineConfig } from 'vitest/config';
import { reactAlias } from './scripts/react-alias.ts';

export default defineConfig({
  // The UI's tests run on what ships: Preact behind the React API (scripts/react-alias.ts).
  resolve: {
    alias: [
      ...reactAlias,
      // Its ES module build, so that its 'react-dom' imports go through the aliases too.
      {
        find: /^@testing-library\/react$/,
        replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
      },
    ],
  },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    pool: 'forks',
    // Packages that import 'react' are run through the aliases too (else Node would load React).
    server: {
      deps: {
        inline: [
          /@testing-library\/react/,
          /@preact\/signals-react/,
          /@linaria\/react/,
          /dexie-react-hooks/,
          /react-hook-form/,
          /wouter/,
        ],
      },
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
