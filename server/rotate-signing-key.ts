import { loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { KeyRing } from './auth/keys.ts';

/**
 * `npm run keys:rotate`: makes a new signing key for the site's database (with the same
 * SIGNING_KEY_SECRET as the servers). Running servers sign with it from their next key reload
 * (within ten minutes, or at once when a token signed with it reaches them); the old key keeps
 * verifying the tokens it signed until they have ended.
 */
async function rotate() {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    const keys = new KeyRing(database.db, config.signingKeySecret);
    await keys.load();
    const kid = await keys.rotate();
    console.info(`New signing key ${kid}; the previous one verifies its tokens for 30 more minutes.`);
  } finally {
    await database.close();
  }
}

rotate().catch((error: unknown) => {
  console.error('Key rotation failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
