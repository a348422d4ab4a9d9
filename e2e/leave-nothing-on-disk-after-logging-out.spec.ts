import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  expect,
  test,
  type APIRequestContext,
  type Page,
  type PlaywrightWorkerArgs,
} from './support/test.ts';
import { BrowserProfile } from './support/browser-profile.ts';
import { attackProfile, tryTokens, type ProfileAttackReport } from './support/profile-attack.ts';
import { liveRefreshTokens, refreshTokenDigest, refreshTokensOf } from './support/server-logins.ts';
import { JWT_PATTERN, REFRESH_TOKEN_PATTERN } from './support/stored-data.ts';
import { SESSION_CHECK_INTERVAL_MS } from '../contract/timings.ts';
import { childToken, registerChild, type ChildAccount } from '../harness/actors/child-account.ts';
import { ChildServerView } from '../harness/actors/child-server-view.ts';
import { Counsellor } from '../harness/actors/counsellor.ts';
import { logInChild } from '../harness/page-models/child-login.ts';
import { MyConversationsPage } from '../harness/page-models/my-conversations.ts';
import { StartPage } from '../harness/page-models/start-page.ts';
import { ThreadPage } from '../harness/page-models/thread-page.ts';

// What someone who copies the browser's profile folder finds after a child logged out: the files
// themselves, read byte by byte, not what the browser answers a page. A cleared IndexedDB record
// stays in the database's files until the browser compacts them; what the app stored there is
// sealed with a key the logout destroys (worker/base/at-rest.ts), so no words are left in clear.
//
// And what they can do with it: the attack of e2e/support/profile-attack.ts tries every 32 bytes of
// the origin's files as the at-rest key against the sealed rows, and every token-shaped string it
// finds at the server. Run first on the same profile while the child is signed in, where it must
// open the child's rows and find the login's refresh token (so that its finding nothing after the
// logout or the quick exit means something); then the app is opened again on that profile, signed
// in, and left.

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

/** Writes a record in clear to an IndexedDB database of this origin (not the app's): the scans must find it. */
function writeCanary(page: Page, text: string): Promise<void> {
  return page.evaluate(
    (canary) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('scan-canary');
        open.onupgradeneeded = () => open.result.createObjectStore('rows');
        open.onsuccess = () => {
          const tx = open.result.transaction('rows', 'readwrite');
          tx.objectStore('rows').put({ text: canary }, 1);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(new Error('canary not written'));
        };
      }),
    text,
  );
}

/** Records in the test's report what an attack read and how long it took; answers the report. */
function noted(when: string, report: ProfileAttackReport): ProfileAttackReport {
  const { folders, files, bytes, decodedBytes, windows, envelopes, keys, opened, tokens, ms } = report;
  test.info().annotations.push({
    type: `profile attack (${when})`,
    description:
      `${ms} ms: ${files} files in ${folders.join(', ')}, ${bytes} bytes and ${decodedBytes} decoded, ` +
      `${windows} windows; ${envelopes} envelopes, ${keys.length} keys, ${opened.length} rows opened, ` +
      `${tokens.length} token candidates`,
  });
  return report;
}

interface Child {
  account: ChildAccount;
  subject: string;
  words: string;
  answer: string;
}

/** A child who wrote a mail that a counsellor answered. */
async function childWithAnAnsweredMail(request: APIRequestContext): Promise<Child> {
  const account = await registerChild(request, 'disk');
  // This view of the server asks for no refresh token: the app's login is the child's only one with any.
  const server = new ChildServerView(request, await childToken(request, account, 'openid profile portal'));
  const subject = `Hemligt ämne ${account.username}`;
  const words = `Min pappa slår mig ${account.username.slice(-8)}`;
  const mail = await server.sendMail(subject, words);
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const answer = `Tack för att du berättar, ${account.username}.`;
  await counsellor.write(mail.id, answer);
  return { account, subject, words, answer };
}

/** The child's texts that rows the attack opened hold. */
function childTextsOpened(report: ProfileAttackReport, child: Child): string[] {
  return [child.account.username, child.subject, child.words, child.answer].filter((text) =>
    report.opened.some((row) => row.plaintext.includes(text)),
  );
}

interface Scene {
  page: Page;
  profile: BrowserProfile;
}

interface Visit<T> {
  child: Child;
  /** What `leave` answered. */
  left: T;
  /** The login's refresh token, as the attack read it from the files while the child was signed in. */
  recovered: string[];
  /** The child's words, name or tokens in clear anywhere in the profile after `leave`. */
  inClear: string[];
  /** The attack on the profile after `leave`, the browser closed. */
  attack: ProfileAttackReport;
}

/**
 * A child with an answered mail signs in to the app in a browser with a profile folder of its own
 * and reads the thread; the browser is closed, and the attack on its folder must open the child's
 * rows and find the login's refresh token. The app is then opened again on the same folder (the
 * installed app started anew), signed in, and `leave` ends the visit; the browser is closed again.
 * Answers what the folder then holds in clear (after checking that the scan finds a record this
 * origin writes in clear, so the scan can fail) and what the attack makes of it.
 */
async function visitAndLeave<T>(
  playwright: PlaywrightWorkerArgs['playwright'],
  request: APIRequestContext,
  leave: (scene: Scene) => Promise<T>,
): Promise<Visit<T>> {
  // Two browser starts on one profile folder, and three reads of all its files.
  test.setTimeout(90_000);
  const child = await childWithAnAnsweredMail(request);
  const { account, subject, words, answer } = child;
  const profile = await BrowserProfile.create(playwright);
  try {
    const first = await profile.launch();
    await logInChild(first.page, account);
    const myPages = new MyConversationsPage(first.page);
    await myPages.goto();
    await myPages.openThread(subject);
    await expect(new ThreadPage(first.page).message(answer)).toBeVisible();
    await first.context.close();

    // The positive control: signed in, the files give the key, the child's words and the login.
    const control = noted('signed in', await attackProfile(profile.folder));
    expect(control.keys, 'at-rest keys in the signed-in profile').not.toEqual([]);
    expect(childTextsOpened(control, child), 'the child’s words in rows opened').toEqual(
      expect.arrayContaining([words, answer]),
    );
    // The login's current refresh token is among what the attack read: its digest is the server's,
    // compared without presenting it (that would swap it, and sign the app out at its next refresh).
    const current = new Set(
      (await refreshTokensOf(account.username)).filter((t) => !t.used && !t.revoked).map((t) => t.digest),
    );
    const recovered = control.tokens
      .filter((t) => t.kind === 'refresh' && current.has(refreshTokenDigest(t.value)))
      .map((t) => t.value);
    expect(recovered, 'the login’s refresh token, read from the signed-in profile').toHaveLength(1);
    // An access token read from the files is taken by the server (it swaps nothing): the probe
    // that must find every token refused later can tell an accepted one.
    const accessTrials = await tryTokens(
      request,
      control.tokens.filter((t) => t.kind === 'jwt'),
    );
    expect(
      accessTrials.some((t) => t.accepted),
      'an access token read from the files, accepted',
    ).toBe(true);

    // The installed app opened again: the child's data, signed in.
    const { context, page } = await profile.launch();
    const start = new StartPage(page);
    await start.goto();
    await expect(start.logoutButton).toBeVisible();
    const again = new MyConversationsPage(page);
    await again.goto();
    await expect(again.thread(subject)).toBeVisible();
    const canary = `Kanariefågel ${randomUUID()}`;
    await writeCanary(page, canary);

    const left = await leave({ page, profile });
    await context.close();

    const files = await filesUnder(profile.folder);
    expect(holding(files, canary).length).toBeGreaterThan(0);
    const inClear = [account.username, subject, words, answer].flatMap((text) =>
      holding(files, text).map((file) => `${file}: ${text}`),
    );
    for (const shape of TOKEN_SHAPES) {
      for (const { file, bytes } of files)
        if (shape.test(bytes.toString('latin1'))) inClear.push(`${file}: a token`);
    }
    return { child, left, recovered, inClear, attack: noted('left', await attackProfile(profile.folder)) };
  } finally {
    await profile.remove();
  }
}

/**
 * Soft: one run reports every way the visit's end fell short (a key left, a token still taken, a
 * login alive at the server), not only the first.
 */
const check = expect.configure({ soft: true });

/** What the attack found that opens sealed rows: each key with where it lay. */
function keysFound(report: ProfileAttackReport): string[] {
  return report.keys.map((key) => `key ${key.keyId} at ${key.where.join(', ')}`);
}

/** No key on disk opens the child's rows, no token the profile holds is taken, the login is over. */
async function expectNothingOpensAndTheLoginEnded(request: APIRequestContext, visit: Visit<unknown>) {
  check(keysFound(visit.attack), 'at-rest keys in the files that open sealed rows').toEqual([]);
  check(childTextsOpened(visit.attack, visit.child), 'the child’s texts in rows the attack opened').toEqual(
    [],
  );
  // Asked before any token is presented: a used one presented again may revoke the login as reuse,
  // which would hide a login the visit's end left alive.
  check(
    liveRefreshTokens(await refreshTokensOf(visit.child.account.username)),
    'refresh tokens of the child the server would still take',
  ).toEqual([]);
  // The login's own refresh token first, before any from the files: one of those taken for reuse
  // would revoke the login, and this one be refused for another reason than the visit's end. It
  // may itself be two swaps old by now (the app refreshes at each start) and refused as reuse: the
  // server's state above is what shows the login ended, this that the thief's copy opens nothing.
  const recovered = await tryTokens(
    request,
    visit.recovered.map((value) => ({ kind: 'refresh' as const, value, where: ['the signed-in profile'] })),
  );
  check(
    recovered.filter((t) => t.accepted),
    'the refresh token read while signed in, accepted at /connect/token',
  ).toEqual([]);
  const onDisk = await tryTokens(request, visit.attack.tokens);
  check(
    onDisk.filter((t) => t.accepted),
    'tokens from the profile the server accepts',
  ).toEqual([]);
}

test('after logging out the profile folder’s files hold none of the child’s words, name or tokens, and open to no key', async ({
  playwright,
  request,
}) => {
  const visit = await visitAndLeave(playwright, request, async ({ page }) => {
    await new StartPage(page).logOut();
    await expect(page).toHaveURL(/\/utloggad$/);
  });
  check(visit.inClear).toEqual([]);
  await expectNothingOpensAndTheLoginEnded(request, visit);
});

test('after a quick exit the app opens signed out, the profile’s files open to no key, and the login is over at the server', async ({
  playwright,
  request,
}) => {
  const visit = await visitAndLeave(playwright, request, async ({ page, profile }) => {
    await page.getByRole('button', { name: 'Lämna sidan' }).first().click();
    await expect(page.getByRole('heading', { name: 'Väder idag' })).toBeVisible();
    // Whoever picks up the phone and opens the app again finds it signed out.
    const next = await page.context().newPage();
    await next.goto('/');
    await expect(next.getByRole('banner').getByRole('button', { name: 'Logga in' })).toBeVisible();
    // A copy of the folder taken now, the browser still running, must open nothing either.
    const whileRunning = noted('the browser running', await attackProfile(profile.folder));
    // Time passing, the browser open with the app in a tab: within two session checks every worker
    // of this browser has seen that the session is gone and ended its own (SPEC §9 session check),
    // and only a worker running the child's session seals rows or refreshes tokens; its longer
    // timers (pings, refetches, the token renewal after 11 minutes) run only while it does. What a
    // minute open would show (a key or a token written back after the exit) shows by then.
    await next.waitForTimeout(2 * SESSION_CHECK_INTERVAL_MS + 1_000);
    return whileRunning;
  });
  check(visit.inClear).toEqual([]);
  check(keysFound(visit.left), 'at-rest keys in the running browser’s files').toEqual([]);
  await expectNothingOpensAndTheLoginEnded(request, visit);
});
