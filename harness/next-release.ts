import fs from 'node:fs';
import path from 'node:path';
import type { Release } from '../scripts/release.ts';

/** The column the next release's migration adds (to `conversations`, which every write touches). */
export const PROBE_COLUMN = 'release_probe';
const MIGRATION = '9999-release-probe';

/**
 * Makes `release` the next release of a rolling upgrade test: its server has one migration more than
 * this checkout's, adding PROBE_COLUMN, as a release that changes the schema has. The old release's
 * processes must run on beside it (docs/operations.md, "Rolling upgrade").
 */
export function withProbeMigration(release: Release): Release {
  return withMigration(
    release,
    MIGRATION,
    `await db.schema.alterTable('conversations').addColumn('${PROBE_COLUMN}', 'text').execute();`,
  );
}

/** A release whose migration fails: its processes cannot start. */
export function withFailingMigration(release: Release): Release {
  return withMigration(release, '9999-release-broken', `throw new Error('this release cannot migrate');`);
}

function withMigration(release: Release, name: string, body: string): Release {
  const file = path.join(release.root, 'server', 'db', 'database.ts');
  const source = fs.readFileSync(file, 'utf8');
  const anchor = 'export function migrations(kind: DatabaseKind) {\n  return {\n';
  if (!source.includes(anchor)) throw new Error(`server/db/database.ts: no ${JSON.stringify(anchor)}`);
  fs.writeFileSync(
    file,
    source.replace(
      anchor,
      `${anchor}    '${name}': {
      up: async (db: Kysely<unknown>) => {
        ${body}
      },
    },\n`,
    ),
  );
  return release;
}
