import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The manual's links: every relative link of the README, docs/ and the folder READMEs names a file
// that exists, and where it names a heading (#anchor), that heading exists there (GitHub's slugs).

const ROOT = path.resolve(import.meta.dirname, '../..');
const MANUAL = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'worker/README.md',
  'client-kit/README.md',
  'staff-console/README.md',
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let inCode = false;
  for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    const heading = !inCode && /^#+ (.*)$/.exec(line);
    if (heading) anchors.add(slugOf(heading[1]!));
  }
  return anchors;
}

function brokenLinks(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue;
    const [filePart, anchor] = target!.split('#');
    const linked = filePart ? path.normalize(path.join(path.dirname(file), filePart)) : file;
    if (!existsSync(path.join(ROOT, linked))) broken.push(`${file}: ${target} (no such file)`);
    else if (anchor && linked.endsWith('.md') && !anchorsOf(linked).has(anchor))
      broken.push(`${file}: ${target} (no such heading)`);
  }
  return broken;
}

describe('the manual', () => {
  it('keeps the README short: what this is, the two commands, the folders, where to read next', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });

  it('has no link that leads nowhere', () => {
    expect(MANUAL.flatMap(brokenLinks)).toEqual([]);
  });

  it('finds a broken link and a missing heading (the check can fail)', () => {
    expect(slugOf('Sizing (`npm run bench:load`)')).toBe('sizing-npm-run-benchload');
    expect(anchorsOf('docs/security.md').has('security-model')).toBe(true);
    expect(anchorsOf('docs/security.md').has('no-such-heading')).toBe(false);
  });
});
