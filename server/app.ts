import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { replyWithError } from './error-reply.ts';
import { migrateToLatest, openDatabase, type QueryListener } from './db/database.ts';
import { hasDemoLogins, seedDemoData } from './db/seed.ts';
import { KeyRing } from './auth/keys.ts';
import { TokenService } from './auth/tokens.ts';
import { LOGIN_POLICY, LoginThrottle, type LoginPolicy } from './auth/login-throttle.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { acceptsIssuer } from './context.ts';
import { KeyedDigest } from './security/keyed-digest.ts';
import { RateLimiter } from './security/rate-limiter.ts';
import { auditRefusedSubscriptions, auditSubscription } from './staff/audit-log.ts';
import { createHub } from './hub/hub.ts';
import { canSeeEntity } from './auth/entity-access.ts';
import { refuseNulCharacters } from './http/guard.ts';
import { portal } from './portal.ts';
import { startJobs } from './jobs/jobs.ts';
import { registerRuntimeConfigRoute } from './http/runtime-config.ts';
import { Metrics } from './metrics.ts';
import { registerClient } from './client-page.ts';
import { registerHealthCheck } from './http/health-check.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
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
    stillValid: (principal) => tokens.stillValid(principal),
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

  registerSecurityHeaders(app, ctx);
  app.addHook('preValidation', refuseNulCharacters);
  const stopJobs = await startJobs(ctx);
  app.setErrorHandler(replyWithError);

  metrics.register(app);
  registerHealthCheck(app, database.db);
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
