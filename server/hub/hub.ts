import type { FastifyInstance } from 'fastify';
import { HUB_KEEP_ALIVE_MS, HUB_SERVER_TIMEOUT_MS } from '../../contract/timings.ts';
import { isStaff, type Principal } from '../auth/principal.ts';
import type { HubContext } from './access.ts';
import { createLocalBackplane, createRedisBackplane } from './backplane.ts';
import type { Backplane, BackplaneMessage } from './backplane.ts';
import { HubConnection, type RefusedSubscriptions } from './connection.ts';
import { POLL_TIMEOUT_MS, registerLongPolling } from './long-polling-transport.ts';
import { TOO_MANY_REQUESTS, createDispatcher } from './methods.ts';
import { registerNegotiate } from './negotiate.ts';
import { sendEventFrameText } from './protocol.ts';
import { ConnectionRegistry } from './registry.ts';
import type { Hub, HubOptions } from './types.ts';
import { VerifiedTokens } from './verified-tokens.ts';
import { attachWebSockets } from './websocket-transport.ts';

export interface CreateHubOptions extends HubOptions {
  /**
   * The site these processes serve (server/hub/site.ts), required with a Redis backplane: its channel
   * and every frame on it carry the site, and frames of another site are dropped. Tests pass a unique
   * one where they start hubs without a database.
   */
  site?: string;
}

const DEFAULT_KEEP_ALIVE_INTERVAL_MS = HUB_KEEP_ALIVE_MS;
/** A child has a phone, a tablet and a computer; the fallback without SharedWorker holds one per browser. */
export const DEFAULT_MAX_CONNECTIONS_PER_ACCOUNT = 10;
const DEFAULT_CLIENT_TIMEOUT_MS = HUB_SERVER_TIMEOUT_MS;
/**
 * An account whose connection was closed for flooding opens no other in this process for this long
 * (negotiate answers 429): coming straight back would bring a fresh budget with it.
 */
export const FLOODING_COOLDOWN_MS = 60_000;
/**
 * How often the heartbeat looks at every connection: a ping, a client timeout or a token expiry happens
 * at most this late (a quarter of the shortest interval, for tests that shorten them).
 */
const heartbeatPeriodMs = (timing: { keepAliveIntervalMs: number; clientTimeoutMs: number }) =>
  Math.max(5, Math.min(1000, Math.floor(Math.min(timing.keepAliveIntervalMs, timing.clientTimeoutMs) / 4)));

export function createHub(options: CreateHubOptions): Hub {
  const timing = {
    keepAliveIntervalMs: options.keepAliveIntervalMs ?? DEFAULT_KEEP_ALIVE_INTERVAL_MS,
    clientTimeoutMs: options.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS,
  };
  const registry = new ConnectionRegistry();
  let closing = false;
  let closed: Promise<void> | null = null;
  const detachers: Array<() => Promise<void>> = [];

  const verifyNow = async (token: string): Promise<Principal | null> => {
    try {
      return await options.authenticate(token);
    } catch (error) {
      console.error('hub: authenticator failed', error instanceof Error ? error.message : error);
      return null;
    }
  };
  /** Tokens verified within the last seconds; every revocation heard drops what it names. */
  const verifiedTokens = new VerifiedTokens();
  /** Always asks the authenticator (negotiate, every long-polling request), and remembers a good answer. */
  const authenticate = (token: string) => verifiedTokens.verify(token, verifyNow, { fresh: true });
  /** Answered from a verification of the last few seconds when there is one (see HubContext). */
  const authenticateRecent = (token: string) => verifiedTokens.verify(token, verifyNow);
  const stillValidNow = async (principal: Principal): Promise<boolean> => {
    try {
      return await options.stillValid(principal);
    } catch (error) {
      console.error('hub: authenticator failed', error instanceof Error ? error.message : error);
      return false;
    }
  };
  /** A connection's newest principal checked again, by its claims (see MethodContext.recheck). */
  const recheck = (principal: Principal) => verifiedTokens.recheck(principal, stillValidNow);
  const observer = options.observer;
  const maxPerAccount = options.maxConnectionsPerAccount ?? DEFAULT_MAX_CONNECTIONS_PER_ACCOUNT;
  /** Accounts that flooded, and until when (epoch ms) they open no connection here. */
  const flooded = new Map<number, number>();
  const dispatch = createDispatcher({
    registry,
    canSubscribe: (p, key) => options.canSubscribe(p, key),
    // A subscription comes right after its connection's negotiate and upgrade.
    recheck,
    observer,
    flooding(connection) {
      const now = Date.now();
      for (const [accountId, until] of flooded) if (until <= now) flooded.delete(accountId);
      flooded.set(connection.principal.accountId, now + FLOODING_COOLDOWN_MS);
      observer?.connectionFlooding?.();
      // No reconnect: a client of ours never gets here, and one that does is not to come back at once.
      connection.close({ error: TOO_MANY_REQUESTS });
    },
  });
  /** Refusal reports being written; the hub's close waits for them, and so can a test. */
  const audits = new Set<Promise<void>>();
  const auditRefusals = (connection: HubConnection, refused: RefusedSubscriptions): void => {
    if (!options.auditRefusals) return;
    const write: Promise<void> = options
      .auditRefusals(connection.principal, refused)
      .catch((error: unknown) => {
        // The error's type only: a database error's detail can quote a row.
        console.error(
          'hub: refused subscriptions not written',
          error instanceof Error ? error.name : 'unknown',
        );
      })
      .finally(() => audits.delete(write));
    audits.add(write);
  };
  /**
   * One timer for all connections, as ASP.NET's heartbeat, rather than a keep-alive interval, a client
   * timeout and an expiry timer for each: it runs while there are connections.
   */
  let heartbeat: NodeJS.Timeout | null = null;
  const beat = (): void => {
    const now = Date.now();
    for (const connection of registry.liveConnections()) connection.heartbeat(now);
    verifiedTokens.prune(now);
  };
  const startHeartbeat = (): void => {
    if (heartbeat) return;
    heartbeat = setInterval(beat, heartbeatPeriodMs(timing));
    heartbeat.unref();
  };
  const stopHeartbeatIfIdle = (): void => {
    if (!heartbeat || registry.liveCount() > 0) return;
    clearInterval(heartbeat);
    heartbeat = null;
  };

  const connectionEvents = {
    onOpen: (connection: HubConnection) => registry.opened(connection),
    onMessage: dispatch,
    onClose: (connection: HubConnection) => {
      registry.removed(connection);
      stopHeartbeatIfIdle();
    },
    onRefusals: auditRefusals,
  };

  const deliver = (message: BackplaneMessage): void => {
    switch (message.kind) {
      case 'entity': {
        // Sent first: `observer?.delivered(send(...))` would skip the send when there is no observer.
        const reached = registry.entities.send(message.entityKey, Buffer.from(message.frame, 'utf8'));
        observer?.delivered(reached, message.at);
        return;
      }
      case 'account': {
        const reached = registry.accounts.send(message.accountId, Buffer.from(message.frame, 'utf8'));
        observer?.delivered(reached, message.at);
        return;
      }
      case 'disconnect':
        verifiedTokens.revokeKey(message.tokenId);
        for (const connection of registry.tokens.members(message.tokenId)) {
          connection.close({ error: 'Token revoked' });
        }
        return;
      case 'disconnect-account':
        verifiedTokens.revokeAccount(message.accountId);
        for (const connection of registry.owners.members(message.accountId)) {
          connection.close({ error: 'Token revoked' });
        }
        return;
      case 'unsubscribe-staff':
        for (const connection of registry.entities.members(message.entityKey)) {
          if (!isStaff(connection.principal) || connection.principal.accountId === message.keepAccountId)
            continue;
          connection.unsubscribe(message.entityKey);
          registry.entities.remove(message.entityKey, connection);
        }
        return;
    }
  };

  if (options.redisUrl && !options.site) throw new Error('A hub on a Redis backplane needs its site.');
  const backplane: Backplane = options.redisUrl
    ? createRedisBackplane(options.redisUrl, options.site ?? '', deliver, {
        lost: () => {
          // Revocations in other processes cannot reach this one now: every step verifies afresh.
          verifiedTokens.suspend();
          observer?.backplaneLost();
        },
        recovered: () => {
          verifiedTokens.resume();
          observer?.backplaneRecovered();
          // What other processes published while Redis was away never arrived here: every client
          // reconnects and catches up, as after a restart.
          closeConnections();
        },
      })
    : createLocalBackplane(deliver);

  const context: HubContext = {
    registry,
    authenticate,
    authenticateRecent,
    createConnection(principal: Principal): HubConnection | 429 {
      if (registry.liveCountOf(principal.accountId) >= maxPerAccount) return 429;
      if ((flooded.get(principal.accountId) ?? 0) > Date.now()) return 429;
      const connection = new HubConnection(principal, timing, connectionEvents, options.nodeId);
      registry.add(connection);
      startHeartbeat();
      return connection;
    },
    isClosing: () => closing,
    pollTimeoutMs: options.pollTimeoutMs ?? POLL_TIMEOUT_MS,
  };

  /** Tells clients to come back (to another process, or this one restarted) and ends every transport. */
  const closeConnections = (): void => {
    for (const connection of registry.all()) connection.close({ allowReconnect: true });
  };

  return {
    register(app: FastifyInstance): void {
      detachers.push(attachWebSockets(app.server, context));
      // Encapsulated: the catch-all body parser for long-poll POSTs stays inside the hub's routes.
      void app.register(async (scope) => {
        registerNegotiate(scope, context);
        registerLongPolling(scope, context);
      });
      // Held polls and open sockets would otherwise keep app.close() waiting.
      app.addHook('preClose', async () => {
        closing = true;
        closeConnections();
      });
    },

    async publishToEntity(entityKey, eventName, data) {
      await backplane.publish({
        kind: 'entity',
        entityKey,
        frame: sendEventFrameText(eventName, data, entityKey),
        at: Date.now(),
      });
    },

    async publishToAccount(accountId, eventName, data, entityKey) {
      await backplane.publish({
        kind: 'account',
        accountId,
        frame: sendEventFrameText(eventName, data, entityKey),
        at: Date.now(),
      });
    },

    async disconnectToken(tokenId) {
      // Here at once (the backplane's echo comes later); every other process when it hears it.
      verifiedTokens.revokeKey(tokenId);
      await backplane.publish({ kind: 'disconnect', tokenId });
    },

    async disconnectAccount(accountId) {
      verifiedTokens.revokeAccount(accountId);
      await backplane.publish({ kind: 'disconnect-account', accountId });
    },

    async unsubscribeOtherStaff(entityKey, keepAccountId) {
      await backplane.publish({ kind: 'unsubscribe-staff', entityKey, keepAccountId });
    },

    connectionCount: () => registry.connectedCount(),
    connectionCountByTransport: () => registry.connectedByTransport(),
    subscriptionCount: () => registry.entities.memberCount(),

    async settled(): Promise<void> {
      while (audits.size > 0) await Promise.allSettled([...audits]);
    },

    close(): Promise<void> {
      closed ??= (async () => {
        closing = true;
        closeConnections();
        await Promise.all(detachers.map((detach) => detach()));
        // The last windows' refusals (told at each close) are written before the database goes.
        while (audits.size > 0) await Promise.allSettled([...audits]);
        await backplane.close();
      })();
      return closed;
    },
  };
}
