import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as limits from '../../contract/limits.ts';
import * as timings from '../../contract/timings.ts';

/** The product's code: every runtime's folder (tests and benchmarks do not count as a use). */
const CODE = ['server', 'worker', 'src', 'staff-console', 'client-kit', 'sw', 'contract'];

const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...CODE], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => /\.(ts|tsx)$/.test(path))
  .map((path) => ({ path, text: withoutComments(readFileSync(path, 'utf8')) }));

/** A name in a comment is no use of it. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
}

/**
 * SPEC's timings and the product's limits, each by its own name: a declared value nobody uses is a
 * gap (a timer nobody runs, a limit nobody checks), and a renamed import hides where it is used.
 */
const MODULES = [
  { file: 'contract/timings.ts', exports: timings, atLeast: 30 },
  { file: 'contract/limits.ts', exports: limits, atLeast: 20 },
];

for (const { file, exports, atLeast } of MODULES) {
  describe(file, () => {
    const names = Object.keys(exports);
    const elsewhere = sources.filter(({ path }) => path !== file);

    it('has every export used by the code under its own name', () => {
      const unused = names.filter(
        (name) => !elsewhere.some(({ text }) => new RegExp(`\\b${name}\\b`).test(text)),
      );
      expect(names.length).toBeGreaterThan(atLeast);
      expect(unused).toEqual([]);
    });

    it('is never imported under another name', () => {
      const renamed = elsewhere.flatMap(({ path, text }) =>
        names
          .filter((name) => new RegExp(`\\b${name}\\s+as\\s+\\w+`).test(text))
          .map((name) => `${path}: ${name}`),
      );
      expect(renamed).toEqual([]);
    });
  });
}
