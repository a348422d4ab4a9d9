import { HUB_METHODS } from '../../contract/hub.ts';
import type { Principal } from '../auth/principal.ts';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION, type HubConnection } from './connection.ts';
import { MessageType, completionFrame } from './protocol.ts';
import type { ClientMessage, InvocationMessage } from './protocol.ts';
import type { ConnectionRegistry } from './registry.ts';
import type { HubObserver } from './types.ts';

/** An error whose message is meant for the client (the client's invoke() rejects with it). */
class HubError extends Error {}

const MAX_ENTITY_KEY_LENGTH = 256;
/** The answer to an invocation past the connection's budget. */
export const TOO_MANY_REQUESTS = 'Too many requests.';

export interface MethodContext {
  registry: ConnectionRegistry;
  canSubscribe(principal: Principal, entityKey: string): Promise<boolean>;
  /**
   * Checks the connection's newest token again, by its principal's claims: expired, revoked or of a
   * deleted or changed account is false (within the few seconds a verification of this process is
   * trusted, see verified-tokens.ts).
   */
  recheck(principal: Principal): Promise<boolean>;
  observer?: HubObserver | undefined;
  /** The connection invokes on past its budget (THROTTLED_BEFORE_CLOSE): the hub ends it. */
  flooding(connection: HubConnection): void;
}

/**
 * A subscription's checks, started when its invocation arrives rather than when its turn comes: the
 * invocations of a connection still run one after another (their effects and completions keep their
 * order), but the database answers all the checks of a burst of subscriptions together (canSubscribe
 * batches what is asked at once, server/auth/entity-access.ts) instead of one round trip each.
 */
interface Prepared {
  /** The connection's token, checked again (false: refused). */
  verified: Promise<boolean>;
  /** canSubscribe's answer, or its failure. */
  allowed: Promise<boolean>;
}

type Method = (
  context: MethodContext,
  connection: HubConnection,
  args: unknown[],
  prepared?: Prepared,
) => Promise<unknown>;

const entityKeyArgument = (name: string, args: unknown[]): string => {
  if (args.length !== 1) {
    throw new HubError(`Invocation provides ${args.length} argument(s) but target '${name}' expects 1.`);
  }
  const [key] = args;
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_ENTITY_KEY_LENGTH) {
    throw new HubError(`'${name}' expects a non-empty entity key.`);
  }
  return key;
};

/** Keyed by lower-case name: ASP.NET binds hub method names case-insensitively. */
const METHODS = new Map<string, { name: string; run: Method }>([
  [
    HUB_METHODS.subscribe.toLowerCase(),
    {
      name: HUB_METHODS.subscribe,
      async run(context, connection, args, prepared) {
        const key = entityKeyArgument(HUB_METHODS.subscribe, args);
        if (
          !connection.isSubscribedTo(key) &&
          connection.subscriptionCount >= MAX_SUBSCRIPTIONS_PER_CONNECTION
        ) {
          refused(context, connection, key, 'limit');
          throw new HubError('Too many subscriptions.');
        }
        // A revocation reaches every process through the backplane; this check holds even if it did
        // not, from a check of at most a few seconds ago (server/hub/verified-tokens.ts). The token
        // is the one the connection held when the invocation arrived (a long poll's send brings a
        // newer one before its invocations).
        const verified = prepared?.verified ?? context.recheck(connection.currentPrincipal);
        if (connection.expired || !(await verified)) {
          connection.close({ error: 'The access token is no longer valid.', allowReconnect: true });
          throw new HubError('Unauthorized');
        }
        const allowed = prepared?.allowed ?? context.canSubscribe(connection.principal, key);
        const may = await allowed;
        // The connection may have ended while permission was checked: a closed one rejoins no group,
        // and a refusal nobody hears is not told either.
        if (connection.closed) return null;
        if (!may) {
          refused(context, connection, key, 'forbidden');
          throw new HubError('Forbidden');
        }
        connection.subscribe(key);
        context.registry.entities.add(key, connection);
        return null;
      },
    },
  ],
  [
    HUB_METHODS.unsubscribe.toLowerCase(),
    {
      name: HUB_METHODS.unsubscribe,
      async run(context, connection, args) {
        const key = entityKeyArgument(HUB_METHODS.unsubscribe, args);
        connection.unsubscribe(key);
        context.registry.entities.remove(key, connection);
        return null;
      },
    },
  ],
  [
    HUB_METHODS.sendMessage.toLowerCase(),
    {
      name: HUB_METHODS.sendMessage,
      // Kept for clients that still call it; messages travel through the REST API now.
      run: async () => null,
    },
  ],
  [
    HUB_METHODS.ping.toLowerCase(),
    {
      name: HUB_METHODS.ping,
      // A round trip and nothing else: the client's liveness check (contract/hub.ts).
      run: async () => null,
    },
  ],
]);

/**
 * A refused subscription is counted (a metric), and the connection tells it with the others of its
 * window (one audit row for staff, see the hub's auditRefusals), never one log line each: a client
 * that asks for what it may not see, again and again, must not write the audit log full.
 */
function refused(
  context: MethodContext,
  connection: HubConnection,
  key: string,
  reason: 'forbidden' | 'limit' | 'throttled',
): void {
  connection.noteRefusedSubscription(key);
  context.observer?.subscriptionRefused?.(reason);
}

const isSubscribe = (message: InvocationMessage) =>
  message.target.toLowerCase() === HUB_METHODS.subscribe.toLowerCase();

/**
 * The token verification that the subscriptions of one read from the client share: every invocation
 * dispatched in the same synchronous pass over the client's records (a frame of many
 * subscriptions) shares one verification, started when they arrived; a later read starts its own.
 */
const verifications = new WeakMap<HubConnection, { principal: Principal; verified: Promise<boolean> }>();

function verifyOnArrival(context: MethodContext, connection: HubConnection): Promise<boolean> {
  const principal = connection.currentPrincipal;
  const shared = verifications.get(connection);
  if (shared?.principal === principal) return shared.verified;
  const verified = context.recheck(principal);
  verifications.set(connection, { principal, verified });
  queueMicrotask(() => {
    if (verifications.get(connection)?.verified === verified) verifications.delete(connection);
  });
  return verified;
}

/** A subscription's checks, begun as it arrives (see Prepared); nothing for other invocations. */
function prepare(
  context: MethodContext,
  connection: HubConnection,
  message: InvocationMessage,
): Prepared | undefined {
  if (!isSubscribe(message)) return undefined;
  const [key] = message.arguments;
  if (message.arguments.length !== 1 || typeof key !== 'string') return undefined;
  if (key.length === 0 || key.length > MAX_ENTITY_KEY_LENGTH) return undefined;
  // One over the limit is refused in its turn without a check.
  if (!connection.isSubscribedTo(key) && connection.subscriptionCount >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
    return undefined;
  }
  const verified = verifyOnArrival(context, connection);
  // Access is checked (and, for staff, audited) only for a token that held: as in its turn. The
  // checks of one frame still go out together, since its verification is shared.
  const principal = connection.principal;
  const allowed = verified.then((holds) => (holds ? context.canSubscribe(principal, key) : false));
  // canSubscribe may fail, and is awaited only when its turn comes: a failure before then must not
  // count as unhandled (it is reported to the client in its turn).
  allowed.catch(() => undefined);
  return { verified, allowed };
}

async function invoke(
  context: MethodContext,
  connection: HubConnection,
  message: InvocationMessage,
  prepared: Prepared | undefined,
) {
  // Closed meanwhile (a flood, a revocation): what is still queued is not run.
  if (connection.closed) return { result: null };
  const method = METHODS.get(message.target.toLowerCase());
  if (!method) return { error: `Unknown hub method '${message.target}'` };
  try {
    return { result: await method.run(context, connection, message.arguments, prepared) };
  } catch (error) {
    if (error instanceof HubError) return { error: error.message };
    console.error(`hub: ${method.name} failed`, error);
    return { error: `An unexpected error occurred invoking '${method.name}' on the server.` };
  }
}

/** Acts on one client message; completions go back only for invocations that carry an id. */
export function createDispatcher(context: MethodContext) {
  return (connection: HubConnection, message: ClientMessage): void => {
    switch (message.type) {
      case MessageType.Invocation: {
        if (!connection.invocations.take()) {
          context.observer?.invocation?.('throttled');
          if (message.invocationId !== undefined)
            connection.send(completionFrame(message.invocationId, { error: TOO_MANY_REQUESTS }));
          if (isSubscribe(message)) {
            const [key] = message.arguments;
            refused(
              context,
              connection,
              typeof key === 'string' ? key.slice(0, MAX_ENTITY_KEY_LENGTH) : '',
              'throttled',
            );
          }
          if (connection.noteThrottled()) context.flooding(connection);
          return;
        }
        context.observer?.invocation?.('served');
        const prepared = prepare(context, connection, message);
        connection.serially(async () => {
          const outcome = await invoke(context, connection, message, prepared);
          if (message.invocationId !== undefined)
            connection.send(completionFrame(message.invocationId, outcome));
        });
        return;
      }
      case MessageType.StreamInvocation:
        if (message.invocationId !== undefined) {
          connection.send(completionFrame(message.invocationId, { error: 'Streaming is not supported.' }));
        }
        return;
      case MessageType.Close:
        connection.close({ frame: false });
        return;
      case MessageType.Ping:
      case 'ignored':
        return;
    }
  };
}
