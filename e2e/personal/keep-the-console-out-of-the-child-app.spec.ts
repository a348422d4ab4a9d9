import { expect, test } from '../support/test.ts';

/**
 * The console's own files: the module script and stylesheets named by /personal's HTML that nothing
 * of the child app names. The child app is its HTML and every script its service worker precaches
 * (its lazily loaded pages included): a chunk one of those imports (React, contract constants) is
 * shared, not the console's.
 */
async function consoleFiles(baseURL: string): Promise<string[]> {
  const html = await (await fetch(`${baseURL}/personal`)).text();
  const files = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const childHtml = await (await fetch(`${baseURL}/`)).text();
  const serviceWorker = await (await fetch(`${baseURL}/sw.js`)).text();
  const childScripts = [...serviceWorker.matchAll(/url:`(assets\/[^`]+\.js)`/g)].map((m) => `/${m[1]!}`);
  const childTexts = await Promise.all(
    childScripts.map(async (path) => (await fetch(`${baseURL}${path}`)).text()),
  );
  const namedByChild = (file: string) => {
    const name = file.split('/').pop()!;
    return childHtml.includes(file) || childTexts.some((text) => text.includes(name));
  };
  return files.filter((file) => !namedByChild(file));
}

test('the child app never loads or precaches the staff console', async ({ page, baseURL }) => {
  const own = await consoleFiles(baseURL!);
  expect(own.some((file) => file.endsWith('.js'))).toBe(true);

  const childHtml = await (await fetch(`${baseURL}/`)).text();
  const childScripts = [...childHtml.matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const scripts = new Map<string, string>();
  const requested: string[] = [];
  page.on('request', (req) => requested.push(new URL(req.url()).pathname));
  page.on('response', async (res) => {
    const path = new URL(res.url()).pathname;
    if (path.endsWith('.js')) scripts.set(path, await res.text().catch(() => ''));
  });
  await page.goto('/');
  await expect(page.getByRole('banner')).toBeVisible();
  // Every script the child's page names has arrived (and with it whatever those imported).
  await expect.poll(() => childScripts.every((path) => scripts.has(path))).toBe(true);

  expect(requested.filter((path) => own.includes(path))).toEqual([]);
  expect(childScripts.length).toBeGreaterThan(0);
  for (const text of scripts.values()) {
    expect(text).not.toContain('Ta nästa');
    expect(text).not.toContain('Personalkonsol');
  }
  const serviceWorker = await (await fetch(`${baseURL}/sw.js`)).text();
  for (const file of own) expect(serviceWorker).not.toContain(file.replace(/^\//, ''));
});

test('the console page loads its own bundle', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (req) => requested.push(new URL(req.url()).pathname));
  await page.goto('/personal');
  await expect(page.getByRole('heading', { name: 'Logga in' })).toBeVisible();
  expect(requested.filter((path) => /^\/assets\/personal-[\w-]+\.js$/.test(path))).toHaveLength(1);
});
