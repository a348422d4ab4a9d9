import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { sql } from 'kysely';
import fastifyStatic from '@fastify/static';
import type { ServerConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import { replyWithError } from './error-reply.ts';
import { migrateToLatest, openDatabase, type QueryListener } from './db/database.ts';
import { hasDemoLogins, seedDemoData } from './db/seed.ts';
import { KeyRing } from './auth/keys.ts';
import { TokenService } from './auth/tokens.ts';
import { LOGIN_POLICY, LoginThrottle, type LoginPolicy } from './auth/login-throttle.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { acceptsIssuer, siteOrigin } from './context.ts';
import { KeyedDigest } from './security/keyed-digest.ts';
import { RateLimiter } from './security/rate-limiter.ts';
import { auditRefusedSubscriptions, auditSubscription } from './staff/audit-log.ts';
import { createHub } from './hub/hub.ts';
import { canSeeEntity } from './auth/entity-access.ts';
import { refuseNulCharacters } from './http/guard.ts';
import { portal } from './portal.ts';
import { startJobs } from './jobs/jobs.ts';
import { registerRuntimeConfigRoute, runtimeConfig } from './http/runtime-config.ts';
import { contentSecurityPolicy, HSTS, PERMISSIONS_POLICY } from './security/browser-policy.ts';
import { Metrics } from './metrics.ts';
import { clientPage } from './client-page.ts';
import { API_SCOPE } from './auth/principal.ts';
import { PushService } from './push/push-service.ts';
import { VapidKeys } from './push/vapid-keys.ts';
import { siteOf } from './hub/site.ts';

export interface BuildOptions {
  logger?: boolean;
  /** With `logger`: each request's method and path too (LOG_REQUESTS=1); false logs failures only. */
  logRequests?: boolean;
  /** Where the log goes when `logger` is on (stdout by default); tests read what was logged. */
  logStream?: NodeJS.WritableStream;
  /** Shorter hub timings for tests. */
  hub?: {
    keepAliveIntervalMs?: number;
    clientTimeoutMs?: number;
    maxConnectionsPerAccount?: number;
  };
  /** Shorter access tokens for tests of expiry. */
  accessTokenSeconds?: number;
  /** Smaller login rules, so a test reaches a brake with tens of attempts instead of hundreds. */
  loginPolicy?: Partial<LoginPolicy>;
  /** Hears every statement the database runs (a test checks that each list query uses an index). */
  onQuery?: QueryListener;
}

/** Refuses to serve demo logins to other machines unless DEMO_SEED=1 asked for exactly that. */
async function guardDemoLogins(config: ServerConfig, db: Parameters<typeof hasDemoLogins>[0]) {
  if (!config.exposed || config.demoSeedExplicit) return;
  if (await hasDemoLogins(db)) {
    throw new Error(
      `The database holds the demo logins (published passwords) and this server is reachable from other machines (HOST ${config.host}, PUBLIC_ORIGIN or TRUST_PROXY). ` +
        'Remove them, use another database, or set DEMO_SEED=1 to run a demo on purpose.',
    );
  }
}

export interface App {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

/** Builds the whole reference server: database, auth, hub, API and the built client. */
export async function buildApp(config: ServerConfig, options: BuildOptions = {}): Promise<App> {
  // Its sources (the hub, the pool) are read at scrape time, once they exist.
  let hub: ReturnType<typeof createHub> | null = null;
  let database: ReturnType<typeof openDatabase> | null = null;
  const metrics = new Metrics(
    {
      hubConnections: () => hub?.connectionCount() ?? 0,
      hubConnectionsByTransport: () => hub?.connectionCountByTransport() ?? { WebSockets: 0, LongPolling: 0 },
      hubSubscriptions: () => hub?.subscriptionCount() ?? 0,
      databasePool: () => database?.poolStats() ?? null,
    },
    { token: config.metricsToken },
  );
  database = openDatabase(config.databaseUrl, {
    onQuery: options.onQuery,
    onError: (kind) => metrics.databaseError(kind),
  });
  const keys = new KeyRing(database.db, config.signingKeySecret);
  let site = '';
  try {
    await migrateToLatest(database);
    if (config.demoSeed) await seedDemoData(database.db);
    await guardDemoLogins(config, database.db);
    await keys.load();
    await new VapidKeys(database.db, config.signingKeySecret).load();
    if (config.redisUrl) site = await siteOf(database.db, config.publicOrigin);
  } catch (error) {
    // A server that will not start leaves no connection open behind it.
    await database.close();
    throw error;
  }
  const tokens = new TokenService(database.db, keys, {
    accessTokenSeconds: options.accessTokenSeconds,
    acceptsIssuer: (issuer) => acceptsIssuer(config, issuer),
  });
  const digest = new KeyedDigest(database.db, config.signingKeySecret);

  const app = Fastify({
    // Only method and path are logged: queries can hold connection tokens, bodies hold credentials.
    logger: options.logger
      ? {
          // Fastify logs each request at info: failures only (warn and up) unless requests are asked for.
          level: options.logRequests === false ? 'warn' : 'info',
          ...(options.logStream ? { stream: options.logStream } : {}),
          serializers: {
            req: (req: { method: string; url: string }) => ({
              method: req.method,
              path: req.url.split('?')[0],
            }),
            // What failed and where, not what it held (a database error's detail can quote a row).
            err: (error: Error & { code?: unknown }) => ({
              type: error.name,
              code: typeof error.code === 'string' ? error.code : '',
              message: error.message,
              stack: error.stack ?? '',
            }),
          },
        }
      : false,
    // Only the configured proxies' X-Forwarded-For is believed (TRUST_PROXY); nobody's by default.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // A client's HTTP pool may hold a socket that never sends a request; it must not block shutdown.
    forceCloseConnections: true,
    // Route schemas may allow a value of several types (a property: string, number or boolean).
    ajv: { customOptions: { allowUnionTypes: true } },
  });
  hub = createHub({
    authenticate: async (token) => {
      const principal = await tokens.verifyAccessToken(token);
      return principal?.scopes.includes(API_SCOPE) ? principal : null;
    },
    canSubscribe: async (principal, key) => {
      const allowed = await canSeeEntity(database.db, principal, key);
      await auditSubscription(database.db, principal, key, allowed);
      return allowed;
    },
    // Refused subscriptions: one row per connection and window, not one each.
    auditRefusals: (principal, refused) => auditRefusedSubscriptions(database.db, principal, refused),
    redisUrl: config.redisUrl,
    site,
    maxConnectionsPerAccount: config.hubMaxConnectionsPerAccount,
    nodeId: config.nodeId,
    observer: metrics.hubObserver,
    ...options.hub,
  });
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    keys,
    tokens,
    throttle: new LoginThrottle(database.db, digest, { ...LOGIN_POLICY, ...options.loginPolicy }),
    limits: new RateLimiter(database.db, digest, {
      factor: config.rateLimitFactor,
      registrationsPerAddress: config.registrationsPerAddress,
    }),
    hub,
    metrics,
    push: new PushService(database.db, config, app.log),
  };
  // Pushes under way finish before the database closes (tests, shutdown).
  app.addHook('onClose', () => ctx.push.drain());
  app.decorateRequest('principal', null);

  const https = config.publicOrigin?.startsWith('https:') ?? false;
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    // Every answer, not only the pages: a worker's script answer sets the worker's own policy.
    const origin = siteOrigin(config, req);
    reply.header('Content-Security-Policy', contentSecurityPolicy(runtimeConfig(ctx, origin), origin));
    // Nothing the app uses; a page that a script got into could not turn them on either.
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    // No other window (an opener, a popup) keeps a handle on the child's tab.
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (https) reply.header('Strict-Transport-Security', HSTS);
    // Nothing personal in any cache: every auth answer is private and never stored (the API's
    // answers are made so by its plugin, server/portal.ts).
    if (req.url.startsWith('/connect/') && !reply.hasHeader('Cache-Control')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
  app.addHook('preValidation', refuseNulCharacters);
  const stopJobs = await startJobs(ctx);
  app.setErrorHandler(replyWithError);

  metrics.register(app);
  // GET /healthz: 200 while the database answers a `select 1` within HEALTH_TIMEOUT_MS, else 503 (a
  // database that is down, restarting, or a pool so busy that nothing gets a connection in time). The
  // answer is kept HEALTH_CACHE_MS and concurrent probes share one check, so a storm of probes costs
  // the pool at most one statement a second; a check still running past its timeout is not run again
  // beside itself but waited for by the next one.
  const HEALTH_TIMEOUT_MS = 1000;
  const HEALTH_CACHE_MS = 1000;
  let health: { ok: boolean; at: number } | null = null;
  let checking: Promise<boolean> | null = null;
  let querying: Promise<unknown> | null = null;
  const checkDatabase = (): Promise<boolean> =>
    (checking ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        querying ??= sql`select 1`.execute(database.db).finally(() => {
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
  await registerAuthRoutes(app, ctx);
  registerRuntimeConfigRoute(app, ctx);
  await app.register(portal(ctx), { prefix: '/portal' });
  hub.register(app);
  await registerClient(app, config);

  return {
    app,
    ctx,
    /**
     * Drains, then stops: no new connection reaches this process any more (a proxy in front sends
     * them to another), idle kept-alive sockets are let go, and only then is every hub client told
     * to reconnect - which lands it on another process. Requests already under way finish.
     */
    async close() {
      stopJobs();
      if (app.server.listening) {
        app.server.close();
        app.server.closeIdleConnections();
      }
      await hub.close();
      await app.close();
      await database.close();
    },
  };
}

const SERVER_PREFIXES = ['/portal/', '/connect/', '/hubs/', '/.well-known/'];

/**
 * A built file's caching, by its path in dist/: the hashed files under assets/ never change under
 * their name, so they are kept for a year without asking again; everything else (the pages, sw.js,
 * the manifest, the icons) is revalidated on every use.
 */
export function cacheControlOf(servedPath: string): string {
  const posix = servedPath.split(path.sep).join('/');
  return posix.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Serves the built client, with index.html (the configured quick exit filled in, client-page.ts) for
 * every client route (the router lives in the browser).
 */
async function registerClient(app: FastifyInstance, { clientDir, quickExitUrl }: ServerConfig) {
  const index = path.join(clientDir, 'index.html');
  if (!fs.existsSync(index)) return;
  const sendIndex = clientPage(index, quickExitUrl);
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: true,
    index: false,
    // Source maps would hand out the source of every page; the build makes none, and none is served.
    allowedPath: (pathName) => !pathName.endsWith('.map'),
    // The build's .br and .gz copies (scripts/vite-plugin-precompress.ts), chosen by Accept-Encoding,
    // with Vary: Accept-Encoding on every answer.
    preCompressed: true,
    // Our own Cache-Control below, instead of the plugin's `public, max-age=0`.
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      const served = path.relative(clientDir, filePath).replace(/\.(br|gz)$/, '');
      reply.header('Cache-Control', cacheControlOf(served));
      // The service worker script is revalidated on every update check (SPEC §4 App updates).
      if (served === 'sw.js') reply.header('Service-Worker-Allowed', '/');
    },
  });
  app.get('/', sendIndex);
  // Also the service worker's precache fetches it by this name.
  app.get('/index.html', sendIndex);
  registerStaffConsolePage(app, clientDir);
  app.setNotFoundHandler((req, reply) => {
    if (
      req.method !== 'GET' ||
      SERVER_PREFIXES.some((p) => req.url.startsWith(p)) ||
      path.extname(req.url.split('?')[0] ?? '')
    ) {
      return reply.code(404).send(new ApiError('not_found').toBody());
    }
    return sendIndex(req, reply);
  });
}

/**
 * The staff console (/personal) is a page of its own with its own bundle: every /personal route
 * gets dist/personal/index.html (its router lives in the browser); a file name there that does not
 * exist is a 404, as elsewhere.
 */
function registerStaffConsolePage(app: FastifyInstance, clientDir: string) {
  if (!fs.existsSync(path.join(clientDir, 'personal', 'index.html'))) return;
  const page = (req: { url: string }, reply: FastifyReply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (path.extname(pathname) && pathname !== '/personal/index.html') {
      return reply.code(404).send(new ApiError('not_found').toBody());
    }
    // cacheControl: false keeps @fastify/static from replacing no-cache with its own max-age=0.
    return reply.header('Cache-Control', 'no-cache').sendFile('personal/index.html', { cacheControl: false });
  };
  app.get('/personal', page);
  app.get('/personal/*', page);
}
