import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_ERRORS, isCommandErrorCode, type ApiErrorCode } from '../../contract/errors.ts';

/**
 * The error registry (contract/errors.ts) says how each API code reaches the young person. The
 * compiler holds one direction: the worker reads a body's code only as a `CommandErrorCode`, so a
 * command cannot compare a code the registry says reaches by its status. This test holds the other:
 * a code the registry says a command tells apart is compared by one, in the worker's own code.
 */
const WORKER_CODE = ['worker', 'client-kit'];

const readers = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', ...WORKER_CODE],
  {
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((path) => /\.ts$/.test(path))
  .map((path) => ({ path, text: withoutComments(readFileSync(path, 'utf8')) }))
  // Only code that reads a refusal's code can compare one (a result code of the same name is not).
  .filter(({ text }) => /\brefusalOf(Body)?\(/.test(text));

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
}

/**
 * A comparison of a refusal's code: `refusalOf(error)?.code === 'x'`, or `code === 'x'` on a local
 * `code` read from one (`registered.code`, a result's code of the same name, is not one).
 */
const compares = (text: string, code: string) =>
  new RegExp(
    `(?:(?<![.\\w])code|refusalOf(?:Body)?\\([^)]*\\)\\?\\.code)\\s*[!=]==\\s*'${code}'|case '${code}':`,
  ).test(text);

const CODES = Object.keys(API_ERRORS) as ApiErrorCode[];

describe('the error registry', () => {
  it('finds the worker code that reads refusals', () => {
    expect(readers.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['worker/sync/account.ts', 'worker/http/http-client.ts']),
    );
  });

  it("has every code a command tells apart compared by one (else the child reads the status's words)", () => {
    const byCommand = CODES.filter(isCommandErrorCode);
    expect(byCommand.length).toBeGreaterThan(3);
    const uncompared = byCommand.filter((code) => !readers.some(({ text }) => compares(text, code)));
    expect(uncompared).toEqual([]);
  });

  it('tells the compiler which codes a command may compare, from the registry alone', () => {
    for (const code of CODES) {
      expect(isCommandErrorCode(code), code).toBe(API_ERRORS[code].reaches === 'command');
    }
  });

  it('gives every code an error status and a Swedish sentence of its own', () => {
    for (const code of CODES) {
      const { status, message } = API_ERRORS[code];
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(message, code).toMatch(/^[A-ZÅÄÖ].*[.!?]$/);
    }
    const sentences = CODES.map((code) => API_ERRORS[code].message);
    expect(new Set(sentences).size).toBe(sentences.length);
  });
});
