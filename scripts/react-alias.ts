// The UI's React API served by Preact (preact/compat): issue 15's budget of 90 KB gzip of JS before
// the first render of the start page cannot hold with react-dom (66 KB gzip on its own). The code
// keeps importing 'react'; these aliases hand it Preact's compatible implementation at build and
// in the tests, so what is tested is what ships.
export const reactAlias = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
  // React's shim for older Reacts (wouter, signals): Preact has the hook itself.
  { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'preact/compat' },
];
