import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';

const SITE_SECRET_NAME = 'site-id';

/**
 * The site these processes serve, as the hub's backplane names it: every process of one site agrees
 * on it (they share the database and the public origin), and two sites never do, even on one Redis
 * (Redis pub/sub ignores the database number in REDIS_URL, so `redis://host/1` and `redis://host/2`
 * share every channel). It is a random value the database keeps, made at the first start, mixed
 * with PUBLIC_ORIGIN: a copy of one site's database restored as another site (a staging copy of
 * production) serves another origin and so is another site. Not a secret: it names a channel.
 */
export async function siteOf(db: Db, publicOrigin: string | undefined): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name: SITE_SECRET_NAME, value: randomBytes(16).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', SITE_SECRET_NAME)
    .executeTakeFirstOrThrow();
  return createHash('sha256')
    .update(`${row.value}\n${publicOrigin ?? ''}`)
    .digest('base64url')
    .slice(0, 22);
}

/** The one Redis channel a site's processes publish and hear on. */
export const siteChannel = (site: string) => `hub:site:${site}:portalaccountevents`;
