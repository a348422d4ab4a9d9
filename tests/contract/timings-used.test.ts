import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as timings from '../../contract/timings.ts';

/** The product's code: every runtime's folder (tests and benchmarks do not count as a use). */
const CODE = ['server', 'worker', 'src', 'staff-console', 'client-kit', 'sw', 'contract'];

const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...CODE], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => /\.(ts|tsx)$/.test(path) && path !== 'contract/timings.ts')
  .map((path) => ({ path, text: withoutComments(readFileSync(path, 'utf8')) }));

/** A name in a comment is no use of it. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
}

describe("contract/timings.ts, SPEC's timings by their names", () => {
  const names = Object.keys(timings);

  it('has every timing used by the code under its own name (a declared timer nobody runs is a SPEC gap)', () => {
    const unused = names.filter(
      (name) => !sources.some(({ text }) => new RegExp(`\\b${name}\\b`).test(text)),
    );
    expect(names.length).toBeGreaterThan(30);
    expect(unused).toEqual([]);
  });

  it('is never imported under another name', () => {
    const renamed = sources.flatMap(({ path, text }) =>
      names
        .filter((name) => new RegExp(`\\b${name}\\s+as\\s+\\w+`).test(text))
        .map((name) => `${path}: ${name}`),
    );
    expect(renamed).toEqual([]);
  });
});
