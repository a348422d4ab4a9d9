import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { HUB_PATH } from '../../contract/hub.ts';
import { accessConnection, bearerToken } from './access.ts';
import type { HubContext } from './access.ts';
import type { HubConnection, Transport } from './connection.ts';

/** ASP.NET's default maximum message is 32 KB; a frame may carry several records, so allow some room. */
const MAX_FRAME_BYTES = 256 * 1024;
/** Past this the peer is not reading; queueing more only costs memory. */
const MAX_SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

/** ws's socket with the hub connection it carries, so one set of listeners serves every socket. */
class HubSocket extends WebSocket {
  connection: HubConnection | null = null;
}

// Shared listeners (`this` is the socket, always a HubSocket here) rather than closures per connection:
// an idle connection should cost what the socket costs.
function onSocketMessage(this: WebSocket, data: WebSocket.RawData, isBinary: boolean): void {
  const connection = (this as HubSocket).connection;
  if (!connection) return;
  if (isBinary) {
    connection.close({ error: 'Binary messages are not supported.' });
    return;
  }
  connection.receive(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString('utf8'));
}

function onSocketGone(this: WebSocket): void {
  (this as HubSocket).connection?.close({ frame: false });
}

export class WebSocketTransport implements Transport {
  readonly kind = 'WebSockets';

  constructor(
    private readonly connection: HubConnection,
    private readonly socket: HubSocket,
  ) {
    socket.connection = connection;
    socket.on('message', onSocketMessage);
    socket.on('close', onSocketGone);
    socket.on('error', onSocketGone);
  }

  notify(): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_SOCKET_BUFFER_BYTES) {
      this.socket.terminate();
      return;
    }
    const data = this.connection.take();
    // binary: false sends a text frame straight from the shared buffer, with no per-socket re-encoding.
    if (data) this.socket.send(data, { binary: false });
  }

  close(): void {
    // ws sends its close frame after whatever is still buffered, so the Close message gets out first.
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
  }
}

/**
 * Shared, not a closure per upgrade: a listener left on the socket for the connection's life would keep
 * whatever its scope holds (the upgrade request with its headers and URL, the head buffer) alive with it.
 */
function destroyOnError(this: Duplex): void {
  this.destroy();
}

function refuse(socket: Duplex, status: number): void {
  socket.on('error', destroyOnError);
  const extra = status === 401 ? 'WWW-Authenticate: Bearer\r\n' : status === 429 ? 'Retry-After: 60\r\n' : '';
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`,
  );
}

/**
 * Browsers cannot set headers on a WebSocket, so the token may come as `access_token`; the Node client
 * sends the Authorization header instead.
 */
const upgradeToken = (request: IncomingMessage, url: URL): string | null =>
  bearerToken(request.headers.authorization) ?? (url.searchParams.get('access_token') || null);

async function accept(
  context: HubContext,
  request: IncomingMessage,
  url: URL,
): Promise<HubConnection | number> {
  if (context.isClosing()) return 503;
  const token = upgradeToken(request, url);
  const connectionToken = url.searchParams.get('id');
  if (connectionToken === null) {
    // skipNegotiation: the upgrade itself opens the connection.
    const principal = token ? await context.authenticate(token) : null;
    if (!principal) return 401;
    return context.isClosing() ? 503 : context.createConnection(principal);
  }
  // Right after its negotiate, which verified the token: that verification serves (a storm of
  // returning clients then costs the database one verification each, not two).
  const access = await accessConnection(context, token, connectionToken, context.authenticateRecent);
  if (!access.ok) return access.status;
  if (access.connection.closed) return 404;
  // One transport per connection, bound once, as in ASP.NET.
  if (access.connection.transport) return 409;
  return access.connection;
}

/** Takes the hub's upgrades off the raw HTTP server; Fastify itself never sees them. */
export function attachWebSockets(server: Server, context: HubContext): () => Promise<void> {
  const wss = new WebSocketServer({
    WebSocket: HubSocket,
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: MAX_FRAME_BYTES,
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== HUB_PATH) {
      // Other upgrade listeners may own this path; with none, nobody else will answer it.
      if (server.listenerCount('upgrade') === 1) refuse(socket, 404);
      return;
    }
    // A peer that resets while we authenticate must not become an unhandled 'error'.
    socket.on('error', destroyOnError);
    accept(context, request, url).then(
      (result) => {
        if (socket.destroyed) {
          // Only a connection this upgrade created dies with it; a negotiated one may still try another transport.
          if (typeof result !== 'number' && !url.searchParams.has('id')) result.close({ frame: false });
          return;
        }
        if (typeof result === 'number') {
          refuse(socket, result);
          return;
        }
        // Checked again here: a concurrent upgrade for the same id may have won while we authenticated.
        if (result.transport || result.closed) {
          refuse(socket, result.closed ? 404 : 409);
          return;
        }
        const connection = result;
        wss.handleUpgrade(request, socket, head, (ws) => {
          // ws has its own error handling on the socket now.
          socket.off('error', destroyOnError);
          if (connection.transport || connection.closed) {
            ws.terminate();
            return;
          }
          context.registry.attach(connection, new WebSocketTransport(connection, ws));
        });
      },
      (error: unknown) => {
        console.error('hub: websocket upgrade failed', error);
        refuse(socket, 500);
      },
    );
  };

  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    return new Promise((resolve) => wss.close(() => resolve()));
  };
}
