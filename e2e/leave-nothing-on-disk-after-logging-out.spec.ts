import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './support/test.ts';
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

const TOKEN_SHAPES = [/eyJ[\w-]{8,}\.eyJ[\w-]{8,}\./, /refresh_token.{0,8}[\w-]{20,}/];

test('after logging out the profile folder’s files hold none of the child’s words, name or tokens', async ({
  playwright,
  request,
}) => {
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
    await logInChild(page, account);
    const myPages = new MyConversationsPage(page);
    await myPages.goto();
    await myPages.openThread(subject);
    await expect(new ThreadPage(page).message(answer)).toBeVisible();
    // The scan can fail: a record this origin writes in clear to IndexedDB is found in the files.
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

    await new StartPage(page).logOut();
    await expect(page).toHaveURL(/\/utloggad$/);
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
    expect(found).toEqual([]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
