import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const CODE = ['server', 'worker', 'src', 'staff-console', 'client-kit', 'sw', 'bench', 'tests', 'e2e'];
const IMPORT_FROM_CONTRACT = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'[^']*contract\/[^']*'/g;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...CODE], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => /\.(ts|tsx)$/.test(path));

describe('contract/', () => {
  it('is imported from contract/ itself: no other module hands its decisions on as its own', () => {
    const handedOn = files.flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      const fromContract = new Set(
        [...text.matchAll(IMPORT_FROM_CONTRACT)].flatMap(([, names]) =>
          names!.split(',').map((name) => name.replace(/^type\s+/, '').trim()),
        ),
      );
      const reExported = [...text.matchAll(/export\s*\{([^}]*)\}\s*(from\s+'([^']*)')?/g)].flatMap(
        ([, names, from, source]) =>
          names!
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name && (from ? source!.includes('contract/') : fromContract.has(name))),
      );
      return reExported.map((name) => `${path}: ${name}`);
    });
    expect(handedOn).toEqual([]);
  });

  it('is imported under its own names: a renamed constant or type hides where a decision is used', () => {
    expect(files.length).toBeGreaterThan(300);
    const renamed = files.flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(IMPORT_FROM_CONTRACT)].flatMap(([, names]) =>
        names!
          .split(',')
          .map((name) => name.trim())
          .filter((name) => /\sas\s/.test(name))
          .map((name) => `${path}: ${name}`),
      ),
    );
    expect(renamed).toEqual([]);
  });
});
