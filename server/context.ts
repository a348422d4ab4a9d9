import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from './config.ts';
import type { Db, DatabaseKind } from './db/database.ts';
import type { TokenService } from './auth/tokens.ts';
import type { KeySet } from './auth/keys.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { Hub } from './hub/types.ts';
import type { Principal } from './auth/principal.ts';

/** Everything a route module needs, built once in app.ts. */
export interface AppContext {
  config: ServerConfig;
  db: Db;
  dbKind: DatabaseKind;
  keys: KeySet;
  tokens: TokenService;
  throttle: LoginThrottle;
  hub: Hub;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The issuer is the origin the client used, so one server answers on any host name it is given. */
export const issuerOf = (req: FastifyRequest): string => `${req.protocol}://${req.host}`;

/** Public OAuth clients this auth server knows: the child app and the staff console. */
export const CLIENTS = {
  'portal-web': { allowedRoles: ['child', 'participant'] },
  'portal-staff': { allowedRoles: ['counsellor', 'group_leader'] },
} as const;
export type ClientId = keyof typeof CLIENTS;
export const ALLOWED_SCOPES = ['openid', 'profile', 'portal', 'offline_access'] as const;
