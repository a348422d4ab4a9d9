import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';
import type { ServerConfig } from './config.ts';
import type { Db } from './db/database.ts';
import type { DatabaseKind } from './db/database-kind.ts';
import type { TokenService } from './auth/tokens.ts';
import type { KeyRing } from './auth/keys.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { RateLimiter } from './security/rate-limiter.ts';
import { isLoopbackHost } from './config.ts';
import type { Hub } from './hub/types.ts';
import type { Metrics } from './metrics.ts';
import type { Principal } from './auth/principal.ts';
import type { PushService } from './push/push-service.ts';

/** Everything a route module needs, built once in app.ts. */
export interface AppContext {
  config: ServerConfig;
  db: Db;
  dbKind: DatabaseKind;
  keys: KeyRing;
  tokens: TokenService;
  throttle: LoginThrottle;
  limits: RateLimiter;
  hub: Hub;
  metrics: Metrics;
  /** Web Push to the child's devices (server/push/): queued, never awaited by a request. */
  push: PushService;
}

/**
 * Route schemas are TypeBox schemas (contract/schemas/), so a handler's `req.body`, `req.query` and
 * `req.params` have the types of the schemas that validated them.
 */
export interface TypeBoxProvider extends FastifyTypeProvider {
  validator: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
  serializer: unknown;
}

/** The Fastify instance a route module registers on. */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxProvider
>;

/** A module of routes: registers its handlers on the plugin it is given, with paths relative to it. */
export type RouteModule = (app: Api, ctx: AppContext) => void | Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** A route anyone may call without a token (registration, say); every other /portal route is authenticated. */
    public?: boolean;
  }
}

/**
 * The site's own origin: PUBLIC_ORIGIN when configured (always, off loopback). On loopback the
 * origin the browser used, so 127.0.0.1 and localhost both work; a Host header that names another
 * machine is not believed.
 */
export function siteOrigin(config: ServerConfig, req: FastifyRequest): string {
  if (config.publicOrigin) return config.publicOrigin;
  if (isLoopbackHost(req.hostname)) return `${req.protocol}://${req.host}`;
  return `http://127.0.0.1:${config.port}`;
}

/** A token's issuer is this site: the configured origin, or (without one) any loopback origin. */
export function acceptsIssuer(config: ServerConfig, issuer: string): boolean {
  if (config.publicOrigin) return issuer === config.publicOrigin;
  try {
    const url = new URL(issuer);
    return url.origin === issuer && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}
