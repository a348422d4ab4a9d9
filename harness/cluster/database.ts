import pg from 'pg';

/** The database `npm run cluster` uses unless DATABASE_URL names one: its own, on the machine's PostgreSQL. */
export const CLUSTER_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/portal_cluster';

/** PostgreSQL's URL with another database name. */
const withDatabase = (url: string, name: string) => url.replace(/\/[^/]*$/, `/${name}`);

/** Creates the database of a postgres:// URL when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`cannot create a database named ${name}`);
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rows.length === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}
