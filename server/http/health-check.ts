import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * GET /healthz: 200 while the database answers a `select 1` within HEALTH_TIMEOUT_MS, else 503 (a
 * database that is down, restarting, or a pool so busy that nothing gets a connection in time). The
 * answer is kept HEALTH_CACHE_MS and concurrent probes share one check, so a storm of probes costs
 * the pool at most one statement a second; a check still running past its timeout is not run again
 * beside itself but waited for by the next one.
 */
export function registerHealthCheck(app: FastifyInstance, db: Db): void {
  const HEALTH_TIMEOUT_MS = 1000;
  const HEALTH_CACHE_MS = 1000;
  let health: { ok: boolean; at: number } | null = null;
  let checking: Promise<boolean> | null = null;
  let querying: Promise<unknown> | null = null;
  const checkDatabase = (): Promise<boolean> =>
    (checking ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        querying ??= sql`select 1`.execute(db).finally(() => {
          querying = null;
        });
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer in time')), HEALTH_TIMEOUT_MS);
        });
        await Promise.race([querying, timeout]);
        return true;
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    })().then((ok) => {
      health = { ok, at: Date.now() };
      checking = null;
      return ok;
    }));
  app.get('/healthz', async (_req, reply) => {
    const fresh = health !== null && Date.now() - health.at < HEALTH_CACHE_MS;
    const ok = fresh ? health!.ok : await checkDatabase();
    reply.header('Cache-Control', 'no-store');
    if (ok) return { status: 'ok' };
    return reply.code(503).header('Retry-After', '1').send({ status: 'unavailable' });
  });
}
