import { randomUUID } from 'node:crypto';
import { e2eDatabaseUrl } from '../playwright.config.ts';
import { openDatabase } from '../server/db/database.ts';
import { expect, test } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { logInChild } from '../harness/page-models/child-login.ts';

// SPEC §8 client error log: an error the page did not catch reaches the server's log, as failed
// requests already did, so a broken screen on a child's phone is seen by the organisation.

async function loggedMessages(marker: string): Promise<string[]> {
  const { db, close } = openDatabase(e2eDatabaseUrl('barn'));
  try {
    const rows = await db.selectFrom('client_logs').select('message').execute();
    return rows.map((r) => r.message).filter((m) => m.includes(marker));
  } finally {
    await close();
  }
}

test('an uncaught error and an unhandled rejection in the page reach the client log once each', async ({
  page,
  request,
}) => {
  await logInChild(page, await registerChild(request, 'fel'));
  const marker = randomUUID();
  await page.evaluate((id) => {
    setTimeout(() => {
      throw new Error(`Oväntat fel ${id}`);
    });
    // The same error twice from the same place: logged once (SPEC §8 de-duplication).
    const fail = () => void Promise.reject(new Error(`Avvisat löfte ${id}`));
    for (let i = 0; i < 2; i++) fail();
  }, marker);

  await expect
    .poll(async () => (await loggedMessages(marker)).sort())
    .toEqual(
      [
        `Uncaught error: Error: Oväntat fel ${marker}`,
        `Unhandled rejection: Error: Avvisat löfte ${marker}`,
      ].sort(),
    );
});
