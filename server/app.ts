import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { ServerConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { seedDemoData } from './db/seed.ts';
import { loadKeySet } from './auth/keys.ts';
import { TokenService } from './auth/tokens.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { createHub } from './hub/hub.ts';
import { canSeeEntity } from './api/entity-access.ts';
import { checkVariantHeader } from './api/guard.ts';
import { registerProfileRoutes } from './api/profile.ts';
import { registerLoggingRoutes } from './api/logging.ts';
import { registerMeetingRoutes } from './api/meetings.ts';
import { registerConversationRoutes } from './api/conversations.ts';
import { registerStaffMeetingRoutes } from './staff/meetings.ts';
import { registerChatRoutes } from './api/chat.ts';
import { registerNotificationRoutes } from './api/notifications.ts';
import { registerContactMessageRoutes } from './api/contact-messages.ts';
import { registerCounsellorRoutes } from './staff/counsellor.ts';
import { cancelAbandonedChats } from './api/queue.ts';
import { registerRuntimeConfigRoute } from './api/runtime-config.ts';
import { Metrics } from './metrics.ts';
import { pruneIdempotencyKeys, storeIdempotentReply } from './api/idempotency.ts';
import { API_SCOPE } from './auth/principal.ts';

export interface BuildOptions {
  logger?: boolean;
  /** Shorter hub timings for tests. */
  hub?: { keepAliveIntervalMs?: number; clientTimeoutMs?: number; redisChannelPrefix?: string };
}

export interface App {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

/** Builds the whole reference server: database, auth, hub, API and the built client. */
export async function buildApp(config: ServerConfig, options: BuildOptions = {}): Promise<App> {
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  if (config.demoSeed) await seedDemoData(database.db);
  const keys = await loadKeySet(database.db);
  const tokens = new TokenService(database.db, keys);

  const app = Fastify({
    // Only method and path are logged: queries can hold connection tokens, bodies hold credentials.
    logger: options.logger
      ? {
          level: 'info',
          serializers: {
            req: (req: { method: string; url: string }) => ({
              method: req.method,
              path: req.url.split('?')[0],
            }),
          },
        }
      : false,
    trustProxy: false,
    // A client's HTTP pool may hold a socket that never sends a request; it must not block shutdown.
    forceCloseConnections: true,
  });
  const hub = createHub({
    authenticate: async (token) => {
      const principal = await tokens.verifyAccessToken(token);
      return principal?.scopes.includes(API_SCOPE) ? principal : null;
    },
    canSubscribe: (principal, key) => canSeeEntity(database.db, principal, key),
    redisUrl: config.redisUrl,
    ...options.hub,
  });
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    keys,
    tokens,
    throttle: new LoginThrottle(database.db),
    hub,
  };
  app.decorateRequest('principal', null);

  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Content-Security-Policy', "frame-ancestors 'self'");
    return payload;
  });
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/portal/')) checkVariantHeader(req);
  });
  app.addHook('onSend', storeIdempotentReply(ctx));
  const prune = setInterval(() => void pruneIdempotencyKeys(ctx).catch(() => undefined), 3600_000);
  prune.unref();
  const sweep = setInterval(() => void cancelAbandonedChats(ctx).catch(() => undefined), 30_000);
  sweep.unref();
  app.setErrorHandler((error, req, reply) => {
    if (error instanceof ApiError) return reply.code(error.status).send(error.toBody());
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) return reply.code(413).send(new ApiError('payload_too_large').toBody());
    if (status === 415) return reply.code(415).send(new ApiError('unsupported_type').toBody());
    if (status && status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ error: 'bad_request', message: new ApiError('bad_request').toBody().message });
    }
    req.log.error({ err: error }, 'request failed');
    return reply.code(500).send(new ApiError('internal').toBody());
  });

  await app.register(formbody);
  const metrics = new Metrics(() => hub.connectionCount());
  metrics.register(app);
  app.get('/healthz', async (_req, reply) => {
    try {
      await database.db.selectFrom('signing_keys').select('kid').limit(1).execute();
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
  registerAuthRoutes(app, ctx);
  registerRuntimeConfigRoute(app, ctx);
  registerProfileRoutes(app, ctx);
  registerLoggingRoutes(app, ctx);
  await registerMeetingRoutes(app, ctx);
  registerConversationRoutes(app, ctx);
  registerChatRoutes(app, ctx);
  registerNotificationRoutes(app, ctx);
  registerContactMessageRoutes(app, ctx);
  registerCounsellorRoutes(app, ctx);
  await registerStaffMeetingRoutes(app, ctx);
  hub.register(app);
  await registerClient(app, config.clientDir);

  return {
    app,
    ctx,
    async close() {
      clearInterval(prune);
      clearInterval(sweep);
      await hub.close();
      await app.close();
      await database.close();
    },
  };
}

const SERVER_PREFIXES = ['/portal/', '/connect/', '/hubs/', '/.well-known/'];

/** Serves the built client, with index.html for every client route (the router lives in the browser). */
async function registerClient(app: FastifyInstance, clientDir: string) {
  const index = path.join(clientDir, 'index.html');
  if (!fs.existsSync(index)) return;
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: true,
    index: false,
    // The service worker script must be revalidated on every update check (SPEC §4 App updates).
    setHeaders: (reply, filePath) => {
      if (filePath === path.join(clientDir, 'sw.js')) {
        reply.header('Cache-Control', 'no-cache');
        reply.header('Service-Worker-Allowed', '/');
      }
    },
  });
  // cacheControl: false keeps @fastify/static from replacing no-cache with its own max-age=0.
  app.get('/', (_req, reply) =>
    reply.header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false }),
  );
  registerStaffConsolePage(app, clientDir);
  app.setNotFoundHandler((req, reply) => {
    if (
      req.method !== 'GET' ||
      SERVER_PREFIXES.some((p) => req.url.startsWith(p)) ||
      path.extname(req.url.split('?')[0] ?? '')
    ) {
      return reply.code(404).send(new ApiError('not_found').toBody());
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false });
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
