import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * Folders that import each other tangle two features into one: neither can be read, moved or
 * deleted alone. In `src/` the root composition (`shell/`, `routes/`) imports the features, the
 * features import the ground floor (`ui-kit/`, `styles/`, `data/`, `conversation-ui/`, ...), and no
 * two folders import each other, with value or type imports alike; the staff console likewise
 * (`app.tsx` and `shell/` on top, `ui/` below). Run by `npm run lint`.
 */
export const CHECKED_ROOTS = ['src', 'staff-console'];

const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?[^'"]*?from\s+['"](\.[^'"]+)['"]/gm;

/** `a <-> b` with the imports each way, for every pair of folders that import each other. */
export function mutualFolderPairs(files: Array<{ path: string; text: string }>): string[] {
  const edges = new Map<string, string[]>();
  for (const { path, text } of files) {
    for (const [, specifier] of text.matchAll(IMPORT)) {
      const target = normalize(join(dirname(path), specifier!));
      const from = dirname(path);
      const to = dirname(target);
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${path} -> ${target}`]);
    }
  }
  const pairs: string[] = [];
  for (const [key, imports] of edges) {
    const [from, to] = key.split(' -> ') as [string, string];
    const back = edges.get(`${to} -> ${from}`);
    if (from < to && back) pairs.push(`${from} <-> ${to}: ${[...imports, ...back].join(', ')}`);
  }
  return pairs;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const paths = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', ...CHECKED_ROOTS],
    {
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter((path) => /\.(ts|tsx)$/.test(path));
  const pairs = mutualFolderPairs(paths.map((path) => ({ path, text: readFileSync(path, 'utf8') })));
  if (pairs.length > 0) {
    console.error(
      `Folders that import each other (move what both need to a ground-floor folder, docs/client.md):\n${pairs.join('\n')}`,
    );
    process.exit(1);
  }
}
