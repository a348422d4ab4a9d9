import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  expect,
  test,
  type APIRequestContext,
  type BrowserContext,
  type Page,
  type PlaywrightWorkerArgs,
} from './support/test.ts';
import { withNeutralExit } from './support/neutral-exit.ts';
import { JWT_PATTERN, REFRESH_TOKEN_PATTERN } from './support/stored-data.ts';
import { childToken, registerChild } from './actors/child-account.ts';
import { ChildServerView } from './actors/child-server-view.ts';
import { Counsellor } from './actors/counsellor.ts';
import { logInChild } from './page-models/child-login.ts';
import { MyConversationsPage } from './page-models/my-conversations.ts';
import { StartPage } from './page-models/start-page.ts';
import { ThreadPage } from './page-models/thread-page.ts';

// What someone who copies the browser's profile folder finds after a child logged out: the files
// themselves, read byte by byte, not what the browser answers a page. A cleared IndexedDB record
// stays in the database's files until the browser compacts them; what the app stored there is
// sealed with a key the logout destroys (worker/client/at-rest.ts), so no words are left in clear.

/** Every file under `dir`, as bytes. */
async function filesUnder(dir: string): Promise<Array<{ file: string; bytes: Buffer }>> {
  const found: Array<{ file: string; bytes: Buffer }> = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.push({ file: path.relative(dir, file), bytes: await readFile(file).catch(() => Buffer.alloc(0)) });
  }
  return found;
}

/** The files that hold `text` as the browser may write it: UTF-8, Latin-1 (V8's one-byte strings) or UTF-16. */
function holding(files: Array<{ file: string; bytes: Buffer }>, text: string): string[] {
  const forms = [Buffer.from(text, 'utf8'), Buffer.from(text, 'latin1'), Buffer.from(text, 'utf16le')];
  return files.filter(({ bytes }) => forms.some((form) => bytes.includes(form))).map(({ file }) => file);
}

/** An access token (a JWT) and a stored refresh token, as the in-browser check finds them. */
const TOKEN_SHAPES = [JWT_PATTERN, REFRESH_TOKEN_PATTERN];

interface Scene {
  page: Page;
  context: BrowserContext;
}

/**
 * A child with a mail and a counsellor's answer, signed in to the app in a browser with a profile
 * folder of its own, the thread open; `leave` ends the visit (the browser is then closed). Answers
 * what the profile's files hold of the child afterwards, after checking that the scan finds a
 * record this origin writes in clear to IndexedDB (so the scan can fail).
 */
async function leaveAndScan(
  playwright: PlaywrightWorkerArgs['playwright'],
  request: APIRequestContext,
  leave: (scene: Scene) => Promise<void>,
): Promise<string[]> {
  const account = await registerChild(request, 'disk');
  const server = new ChildServerView(request, await childToken(request, account));
  const subject = `Hemligt ämne ${account.username}`;
  const words = `Min pappa slår mig ${account.username.slice(-8)}`;
  const mail = await server.sendMail(subject, words);
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const answer = `Tack för att du berättar, ${account.username}.`;
  await counsellor.write(mail.id, answer);

  const profile = await mkdtemp(path.join(tmpdir(), 'portal-profile-'));
  const { baseURL, launchOptions, locale, timezoneId } = test.info().project.use;
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...launchOptions,
    ...(baseURL ? { baseURL } : {}),
    ...(locale ? { locale } : {}),
    ...(timezoneId ? { timezoneId } : {}),
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await withNeutralExit(context);
    await logInChild(page, account);
    const myPages = new MyConversationsPage(page);
    await myPages.goto();
    await myPages.openThread(subject);
    await expect(new ThreadPage(page).message(answer)).toBeVisible();
    const canary = `Kanariefågel ${randomUUID()}`;
    await page.evaluate(
      (text) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('scan-canary');
          open.onupgradeneeded = () => open.result.createObjectStore('rows');
          open.onsuccess = () => {
            const tx = open.result.transaction('rows', 'readwrite');
            tx.objectStore('rows').put({ text }, 1);
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
            tx.onerror = () => reject(new Error('canary not written'));
          };
        }),
      canary,
    );

    await leave({ page, context });
    await context.close();

    const files = await filesUnder(profile);
    expect(holding(files, canary).length).toBeGreaterThan(0);
    const found = [account.username, subject, words, answer].flatMap((text) =>
      holding(files, text).map((file) => `${file}: ${text}`),
    );
    for (const shape of TOKEN_SHAPES) {
      for (const { file, bytes } of files)
        if (shape.test(bytes.toString('latin1'))) found.push(`${file}: a token`);
    }
    return found;
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

test('after logging out the profile folder’s files hold none of the child’s words, name or tokens', async ({
  playwright,
  request,
}) => {
  const found = await leaveAndScan(playwright, request, async ({ page }) => {
    await new StartPage(page).logOut();
    await expect(page).toHaveURL(/\/utloggad$/);
  });
  expect(found).toEqual([]);
});

test('after a quick exit the app opens signed out, and the profile’s files hold nothing of the child in clear', async ({
  playwright,
  request,
}) => {
  const found = await leaveAndScan(playwright, request, async ({ page, context }) => {
    await page.getByRole('button', { name: 'Lämna sidan' }).first().click();
    await expect(page.getByRole('heading', { name: 'Väder idag' })).toBeVisible();
    // Whoever picks up the phone and opens the app again finds it signed out.
    const next = await context.newPage();
    await next.goto('/');
    await expect(next.getByRole('banner').getByRole('button', { name: 'Logga in' })).toBeVisible();
  });
  expect(found).toEqual([]);
});
