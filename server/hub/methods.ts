import { HUB_METHODS } from '../../contract/hub.ts';
import type { Principal } from '../auth/principal.ts';
import type { HubConnection } from './connection.ts';
import { MessageType, completionFrame } from './protocol.ts';
import type { ClientMessage, InvocationMessage } from './protocol.ts';
import type { ConnectionRegistry } from './registry.ts';

/** An error whose message is meant for the client (the client's invoke() rejects with it). */
class HubError extends Error {}

/** Keeps one connection from pinning unbounded memory through subscriptions. */
const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1000;
const MAX_ENTITY_KEY_LENGTH = 256;

export interface MethodContext {
  registry: ConnectionRegistry;
  canSubscribe(principal: Principal, entityKey: string): Promise<boolean>;
  /** Checks the connection's newest token again: expired, revoked or of a deleted account is null. */
  authenticate(token: string): Promise<Principal | null>;
}

type Method = (context: MethodContext, connection: HubConnection, args: unknown[]) => Promise<unknown>;

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
      async run(context, connection, args) {
        const key = entityKeyArgument(HUB_METHODS.subscribe, args);
        if (
          !connection.isSubscribedTo(key) &&
          connection.subscriptionCount >= MAX_SUBSCRIPTIONS_PER_CONNECTION
        ) {
          throw new HubError('Too many subscriptions.');
        }
        // A revocation reaches every process through the backplane; this check holds even if it did not.
        if (connection.expired || !(await context.authenticate(connection.currentToken))) {
          connection.close({ error: 'The access token is no longer valid.', allowReconnect: true });
          throw new HubError('Unauthorized');
        }
        if (!(await context.canSubscribe(connection.principal, key))) throw new HubError('Forbidden');
        // The connection may have ended while permission was checked; a closed one must not rejoin a group.
        if (connection.closed) return null;
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
]);

async function invoke(context: MethodContext, connection: HubConnection, message: InvocationMessage) {
  const method = METHODS.get(message.target.toLowerCase());
  if (!method) return { error: `Unknown hub method '${message.target}'` };
  try {
    return { result: await method.run(context, connection, message.arguments) };
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
      case MessageType.Invocation:
        if (!connection.invocations.take()) {
          if (message.invocationId !== undefined)
            connection.send(completionFrame(message.invocationId, { error: 'Too many requests.' }));
          return;
        }
        connection.serially(async () => {
          const outcome = await invoke(context, connection, message);
          if (message.invocationId !== undefined)
            connection.send(completionFrame(message.invocationId, outcome));
        });
        return;
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
