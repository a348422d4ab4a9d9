import { loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { KeyRing } from './auth/keys.ts';
import { VapidKeys } from './push/vapid-keys.ts';

/**
 * `npm run keys:rotate`: makes a new signing key for the site's database (with the same
 * SIGNING_KEY_SECRET as the servers). Running servers sign with it from their next key reload
 * (within ten minutes, or at once when a token signed with it reaches them); the old key keeps
 * verifying the tokens it signed until they have ended.
 *
 * `npm run keys:rotate -- --vapid`: makes a new VAPID key for Web Push instead. Every push
 * subscription was made with the old key, and push services take only pushes signed with the key
 * a subscription was made with: they are deleted, and each app subscribes again when it sees the
 * new key (at its next start). Until then, no push reaches those devices.
 */
async function rotate(vapid: boolean) {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    if (vapid) {
      const keys = new VapidKeys(database.db, config.signingKeySecret);
      await keys.load();
      await keys.rotate();
      console.info('New VAPID key; every push subscription was deleted, and the apps subscribe again.');
      return;
    }
    const keys = new KeyRing(database.db, config.signingKeySecret);
    await keys.load();
    const kid = await keys.rotate();
    console.info(`New signing key ${kid}; the previous one verifies its tokens for 30 more minutes.`);
  } finally {
    await database.close();
  }
}

rotate(process.argv.slice(2).includes('--vapid')).catch((error: unknown) => {
  console.error('Key rotation failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
