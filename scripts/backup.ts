import { loadConfig } from '../server/config.ts';
import { BackupError, backupDatabase, backupSigningOf } from '../server/db/backup.ts';

/**
 * `npm run backup -- FILE`: a consistent copy of the database DATABASE_URL names, taken while the
 * site runs and signed under its SIGNING_KEY_SECRET (server/db/backup.ts; docs/operations.md,
 * "Backup and restore").
 */
const file = process.argv[2];
if (!file || file.startsWith('-')) {
  console.error('Usage: npm run backup -- FILE   (the database is the one DATABASE_URL names)');
  process.exit(2);
}
// Only the database's own setting: the rest of a server's configuration is not needed here.
const { databaseUrl } = loadConfig({ DATABASE_URL: process.env.DATABASE_URL });
try {
  const { kind, bytes, signed } = await backupDatabase(databaseUrl, file, backupSigningOf());
  console.info(
    `Backup of the ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database written to ${file} (${bytes} bytes), ${signed ? 'signed under SIGNING_KEY_SECRET' : 'unsigned'}.`,
  );
  if (!signed) {
    console.warn(
      'WARNING: SIGNING_KEY_SECRET is not set, so the backup is unsigned: a restore cannot tell whether it was changed, and a site with a secret or NODE_ENV=production refuses it.',
    );
  }
  console.info('Keep SIGNING_KEY_SECRET and the erasure log apart from it: neither is in the backup.');
} catch (error) {
  console.error(`Backup failed: ${error instanceof BackupError ? error.message : String(error)}`);
  process.exit(1);
}
