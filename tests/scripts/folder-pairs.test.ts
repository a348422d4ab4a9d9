import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKED_ROOTS, mutualFolderPairs } from '../../scripts/folder-pairs.ts';

describe('the lint check for folders that import each other', () => {
  it('finds two folders that import each other, by value or by type, and passes one-way imports', () => {
    const files = [
      {
        path: 'src/shell/root.tsx',
        text: "import { Icon } from '../ui-kit/icons.tsx';\nimport { A } from '../a/a.ts';",
      },
      { path: 'src/ui-kit/icons.tsx', text: "import { colors } from '../styles/theme.ts';" },
      { path: 'src/a/a.ts', text: "import type { B } from '../b/b.ts';\nimport { same } from './same.ts';" },
      { path: 'src/b/b.ts', text: "export { a } from '../a/a.ts';" },
    ];
    expect(mutualFolderPairs(files)).toEqual([
      'src/a <-> src/b: src/a/a.ts -> src/b/b.ts, src/b/b.ts -> src/a/a.ts',
    ]);
  });

  it('finds none in the app', () => {
    const paths = execFileSync('git', ['ls-files', ...CHECKED_ROOTS], { encoding: 'utf8' })
      .split('\n')
      .filter((path) => /\.(ts|tsx)$/.test(path));
    expect(paths.length).toBeGreaterThan(100);
    expect(mutualFolderPairs(paths.map((path) => ({ path, text: readFileSync(path, 'utf8') })))).toEqual([]);
  });
});
