import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AuthDb } from '../../worker/auth/user-store.ts';
import { AtRestKey } from '../../worker/base/at-rest.ts';
import { PortalDb } from '../../worker/base/db.ts';
import { exitHandleOf } from '../../contract/quick-exit.ts';
import { api, refreshRequest } from '../../harness/test-server.ts';
import { MAIL_DEVICE, useCounsellorTestEnv } from './child-helpers.ts';
import { signedInWorker } from './group/group-helpers.ts';
import { valueOf } from './helpers.ts';

// What a sign-out leaves in the browser's storage: read without the at-rest layer, as a look at
// the disk would, before and after.

const env = useCounsellorTestEnv();
const PASSWORD = 'blå-ballong-73';
const WORDS = 'Min pappa slår mig';

/** Every row of a database as stored, as text. */
async function stored(db: PortalDb | AuthDb): Promise<string> {
  const raw = db instanceof PortalDb ? new PortalDb(db.name) : new AuthDb(db.name);
  try {
    return JSON.stringify(await Promise.all(raw.tables.map((t) => t.toArray())));
  } finally {
    raw.close();
  }
}

describe('a sign-out on disk', () => {
  it('stores the mail and the tokens sealed, and leaves nothing readable after the sign-out', async () => {
    const registered = await api(env.server.url, '/portal/api/accounts/registercontact', {
      body: {
        username: 'lamna-inget',
        password: PASSWORD,
        properties: { birthYear: '2011', gender: 'female' },
      },
    });
    expect(registered.status).toBe(201);
    const fixture = await signedInWorker(env.server, 'lamna-inget', PASSWORD);
    env.fixtures.push(fixture);
    const { worker, db, authDb, keyFile } = fixture;
    expect(valueOf(await worker.commands.sendMail('Hemma', WORDS, MAIL_DEVICE)).status).toBe('sent');
    const refreshToken = (await worker.auth.manager.getUser())!.refresh_token!;

    // Signed in: the app reads its data; the disk holds neither the words nor the token.
    expect((await db.chatMessages.toArray()).map((m) => m.message)).toContain(WORDS);
    expect(await stored(db)).not.toContain(WORDS);
    expect(await stored(authDb)).not.toContain(refreshToken);
    const residue = await new PortalDb(db.name).chatMessages.toArray();
    expect(residue.length).toBeGreaterThan(0);

    await worker.commands.logout();

    // The key file was shredded: a row a database file still held would open as nothing.
    expect(keyFile.shreds).toBeGreaterThan(0);
    expect(keyFile.holdsKey).toBe(false);
    expect(await new AtRestKey(keyFile).current()).toBeUndefined();
    const copy = new PortalDb(`${db.name}-copy`);
    await copy.chatMessages.bulkPut(residue);
    const reader = new PortalDb(copy.name, undefined, new AtRestKey(keyFile));
    expect(await reader.chatMessages.toArray()).toEqual([]);
    await Promise.all([copy.delete(), reader.delete()]);
    // The databases were deleted, not cleared: nothing of the user, the signed-out session only.
    expect(await stored(authDb)).toBe('[[]]');
    expect(await db.chatMessages.count()).toBe(0);
    expect(await db.session.get('current')).toMatchObject({ status: 'anonymous' });
  });

  it("gives the tabs the login's exit handle, and on a quick exit ends the session here at once and the login at the server", async () => {
    const registered = await api(env.server.url, '/portal/api/accounts/registercontact', {
      body: { username: 'lamna-fort', password: PASSWORD, properties: { birthYear: '2012', gender: 'male' } },
    });
    expect(registered.status).toBe(201);
    const fixture = await signedInWorker(env.server, 'lamna-fort', PASSWORD);
    env.fixtures.push(fixture);
    const { worker, db, authDb, keyFile, broadcasts } = fixture;
    const refreshToken = (await worker.auth.manager.getUser())!.refresh_token!;
    const handle = await exitHandleOf(refreshToken);
    // Told at the sign-in, and asked by every tab that connects.
    await expect.poll(() => broadcasts).toContainEqual({ type: 'exit-handle', handle });
    expect(await worker.commands.exitHandle()).toEqual({ ok: true, value: handle });
    expect(keyFile.holdsKey).toBe(true);

    expect(await worker.commands.quickExit()).toEqual({ ok: true, value: undefined });
    expect(keyFile.holdsKey).toBe(false);
    expect(await stored(authDb)).toBe('[[]]');
    expect(await db.session.get('current')).toMatchObject({ status: 'anonymous' });
    expect(broadcasts).toContainEqual({ type: 'signed-out', reason: 'user' });
    expect(await worker.commands.exitHandle()).toEqual({ ok: true, value: null });
    // The worker's own revocation, beside the page's: the login is over at the server too.
    expect((await refreshRequest(env.server.url, refreshToken)).status).toBe(400);
  });
});
