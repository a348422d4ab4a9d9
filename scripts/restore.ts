import { loadConfig } from '../server/config.ts';
import { BackupError, backupSigningOf, restoreDatabase } from '../server/db/backup.ts';
import { erasureLogPath } from '../server/security/erasure-log.ts';

/**
 * `npm run restore -- FILE`: puts a backup made by `npm run backup` in place of the database
 * DATABASE_URL names, on a stopped site; refused while the site runs, and refused when the backup
 * was changed after it was made (its signature under SIGNING_KEY_SECRET; server/db/backup.ts;
 * docs/operations.md, "Backup and restore").
 */
const file = process.argv[2];
if (!file || file.startsWith('-')) {
  console.error(
    'Usage: npm run restore -- FILE   (into the database DATABASE_URL names; stop the site first)',
  );
  process.exit(2);
}
// Only the database's own setting: the rest of a server's configuration is not needed here.
const { databaseUrl } = loadConfig({ DATABASE_URL: process.env.DATABASE_URL });
try {
  const { signed, made } = await restoreDatabase(databaseUrl, file, backupSigningOf());
  console.info(
    `Restored ${file}${made ? ` (made ${made})` : ''} into ${databaseUrl.replace(/:[^:@/]*@/, ':***@')}.`,
  );
  if (!signed) {
    console.warn(
      'WARNING: the backup is unsigned (made without SIGNING_KEY_SECRET): nothing showed it unchanged since it was made.',
    );
  }
  const log = erasureLogPath(databaseUrl);
  if (log) {
    console.info(
      `At its next start the server erases again every account the erasure log ${log} names: start it with the same ERASURE_LOG_FILE as before.`,
    );
  }
} catch (error) {
  console.error(`Restore failed: ${error instanceof BackupError ? error.message : String(error)}`);
  process.exit(1);
}
