import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Code, comments and docs speak of the product in its own terms: a reader has no tracker, so a
 * tracker number ("issue N", "step N") tells them nothing. Name the rule, or link docs/decisions.md.
 * Run by `npm run lint`.
 */
export const TRACKER_REFERENCE = /\b(?:issues?|steps?)\s*#?\d+(?:\/\d+)?\b/i;

/** Files that are generated, binary, or this check's own test (which must quote what it finds). */
const SKIPPED = [
  /^package-lock\.json$/,
  /\.(png|ico|webp|woff2?)$/,
  /^tests\/scripts\/tracker-references\.test\.ts$/,
];

/** `path:line: text` of every line in `files` that cites a tracker. */
export function trackerReferences(files: Array<{ path: string; text: string }>): string[] {
  return files.flatMap(({ path, text }) =>
    text
      .split('\n')
      .map((line, i) => ({ line, i }))
      .filter(({ line }) => TRACKER_REFERENCE.test(line))
      .map(({ line, i }) => `${path}:${i + 1}: ${line.trim()}`),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const paths = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter((path) => path && !SKIPPED.some((skip) => skip.test(path)));
  const found = trackerReferences(
    paths.map((path) => ({
      path,
      text: (() => {
        try {
          return readFileSync(path, 'utf8');
        } catch {
          return '';
        }
      })(),
    })),
  );
  if (found.length > 0) {
    console.error(
      `Tracker references (name the rule, or link docs/decisions.md instead):\n${found.join('\n')}`,
    );
    process.exit(1);
  }
}
