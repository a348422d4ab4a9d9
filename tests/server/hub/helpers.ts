import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import type { HubConnection } from '@microsoft/signalr';
import { WebSocket } from 'ws';
import type { Principal } from '../../../server/auth/principal.ts';
import { createHub } from '../../../server/hub/hub.ts';
import type { CreateHubOptions } from '../../../server/hub/hub.ts';
import type { Hub } from '../../../server/hub/types.ts';
import { HUB_PATH } from '../../../contract/hub.ts';

export const RS = '\x1e';

/** token string → principal; deleting an entry is how a test revokes a token. */
export type TokenTable = Map<string, Principal>;

export const principal = (accountId: number, tokenId: string): Principal => ({
  accountId,
  contactId: accountId * 10,
  roles: ['participant'],
  clientId: 'portal-web',
  tokenId,
  tokenGeneration: 0,
  expiresAt: Math.floor(Date.now() / 1000) + 3600,
  scopes: ['openid', 'profile', 'portal', 'offline_access'],
});

/** Tokens of account 1 (two of them) and account 2, with per-run unique token ids. */
export function makeTokens(): TokenTable {
  const run = randomUUID();
  return new Map([
    ['token-a1', principal(1, `jti-a1-${run}`)],
    ['token-a1b', principal(1, `jti-a1b-${run}`)],
    ['token-b2', principal(2, `jti-b2-${run}`)],
  ]);
}

/** An account may watch `Contact:<its id>` and keys under it (`Contact:<id>:<suffix>`), nothing else. */
export const canSubscribe = async (p: Principal, key: string): Promise<boolean> => {
  const [kind, owner] = key.split(':');
  return kind === 'Contact' && owner === String(p.accountId);
};

export interface TestServer {
  app: FastifyInstance;
  hub: Hub;
  tokens: TokenTable;
  baseUrl: string;
  hubUrl: string;
  wsUrl: string;
}

export async function startServer(
  overrides: Partial<CreateHubOptions> = {},
  tokens: TokenTable = makeTokens(),
  addRoutes: (app: FastifyInstance) => void = () => undefined,
): Promise<TestServer> {
  const hub = createHub({
    authenticate: async (token) => tokens.get(token) ?? null,
    // Still valid while its token is in the table (deleting it revokes it).
    stillValid: async (p) => [...tokens.values()].includes(p),
    canSubscribe,
    ...overrides,
  });
  // The client's HTTP pool may hold a connected socket that never sent a request; only a forced close ends it.
  const app = Fastify({ forceCloseConnections: true });
  hub.register(app);
  addRoutes(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    app,
    hub,
    tokens,
    baseUrl,
    hubUrl: baseUrl + HUB_PATH,
    wsUrl: `ws://127.0.0.1:${address.port}${HUB_PATH}`,
  };
}

export async function stopServer(server: TestServer | undefined): Promise<void> {
  if (!server) return;
  await server.hub.close();
  await server.app.close();
}

export const TRANSPORTS = [
  ['WebSockets', HttpTransportType.WebSockets],
  ['LongPolling', HttpTransportType.LongPolling],
] as const;

export function buildClient(hubUrl: string, token: string, transport: HttpTransportType): HubConnection {
  return new HubConnectionBuilder()
    .withUrl(hubUrl, { transport, accessTokenFactory: () => token })
    .configureLogging(LogLevel.None)
    .build();
}

/**
 * A WebSocket hub connection to the server at `serverUrl` on `token`, kept in `open` for the test's
 * cleanup, and a promise of its close (what a revocation must cause).
 */
export async function connectedHub(
  serverUrl: string,
  token: string,
  open: HubConnection[],
): Promise<{ closed: Promise<Error | undefined> }> {
  const connection = buildClient(`${serverUrl}${HUB_PATH}`, token, HttpTransportType.WebSockets);
  open.push(connection);
  const closed = new Promise<Error | undefined>((resolve) => connection.onclose(resolve));
  await connection.start();
  return { closed };
}

export interface ReceivedEvent {
  eventName: string;
  data: unknown;
  entityKey: string;
}

/** Records every SendEvent the client gets. */
export function recordEvents(connection: HubConnection): ReceivedEvent[] {
  const events: ReceivedEvent[] = [];
  connection.on('SendEvent', (eventName: string, data: unknown, entityKey: string) => {
    events.push({ eventName, data, entityKey });
  });
  return events;
}

/** Polls a condition on the event loop; for state that has no event to await. */
export async function waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A raw WebSocket speaking the protocol by hand, collecting every record the server sends. */
export class RawClient {
  readonly records: string[] = [];
  readonly socket: WebSocket;
  closed = false;
  private partial = '';

  constructor(url: string, headers: Record<string, string> = {}) {
    this.socket = new WebSocket(url, { headers });
    this.socket.on('message', (data) => {
      const parts = (this.partial + String(data)).split(RS);
      this.partial = parts.pop() ?? '';
      this.records.push(...parts);
    });
    this.socket.on('close', () => {
      this.closed = true;
    });
    // Refused upgrades and terminate() while connecting emit errors the tests observe through opened().
    this.socket.on('error', () => undefined);
  }

  /** Resolves with the HTTP status when the upgrade is refused, or 101 when it succeeds. */
  opened(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve(101));
      this.socket.once('unexpected-response', (req, res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      this.socket.once('error', (error) => {
        if (!this.closed) reject(error);
      });
    });
  }

  send(...records: object[]): void {
    this.socket.send(records.map((r) => JSON.stringify(r) + RS).join(''));
  }

  messages(): Array<Record<string, unknown>> {
    return this.records.map((r) => JSON.parse(r) as Record<string, unknown>);
  }

  async handshake(): Promise<void> {
    this.send({ protocol: 'json', version: 1 });
    await waitFor(() => this.records.length > 0);
  }

  close(): void {
    this.socket.terminate();
  }
}
