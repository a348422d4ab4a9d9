import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HUB_PATH } from '../../contract/hub.ts';
import { accessConnection, bearerToken, queryString } from './access.ts';
import type { HubContext } from './access.ts';
import type { HubConnection, Transport } from './connection.ts';

/** Below the client's 100 s request timeout, so a quiet poll ends as an empty 200 rather than a client abort. */
export const POLL_TIMEOUT_MS = 90_000;
/** Several records may arrive in one POST; this bounds one request, not the protocol. */
const MAX_POST_BYTES = 1024 * 1024;
const TEXT = 'text/plain; charset=utf-8';

interface PendingPoll {
  reply: FastifyReply;
  timer: NodeJS.Timeout;
}

/** Holds at most one poll open and answers it as soon as the connection has something queued. */
export class LongPollingTransport implements Transport {
  readonly kind = 'LongPolling';
  private pending: PendingPoll | null = null;

  constructor(
    private readonly connection: HubConnection,
    private readonly pollTimeoutMs: number,
  ) {}

  poll(reply: FastifyReply): void {
    // Every poll is life: the official client sends no pings over long polling.
    this.connection.noteAlive();
    // A newer poll means the older one's client gave up on it; end it harmlessly.
    if (this.pending) this.answer(200);
    const queued = this.connection.take();
    if (queued) {
      void reply.code(200).type(TEXT).send(queued);
      return;
    }
    if (this.connection.closed) {
      void reply.code(204).send();
      return;
    }
    const pending: PendingPoll = { reply, timer: setTimeout(() => this.answer(200), this.pollTimeoutMs) };
    this.pending = pending;
    reply.raw.on('close', () => {
      if (this.pending !== pending) return;
      clearTimeout(pending.timer);
      this.pending = null;
    });
  }

  notify(): void {
    if (this.pending) this.answer(200, this.connection.take());
  }

  clientWaiting(): boolean {
    return this.pending !== null;
  }

  close(): void {
    if (!this.pending) return;
    const queued = this.connection.take();
    this.answer(queued ? 200 : 204, queued);
  }

  private answer(status: 200 | 204, body: Buffer | null = null): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    clearTimeout(pending.timer);
    if (status === 204) void pending.reply.code(204).send();
    else
      void pending.reply
        .code(200)
        .type(TEXT)
        .send(body ?? '');
  }
}

const connectionRequest = async (context: HubContext, request: FastifyRequest, reply: FastifyReply) => {
  const access = await accessConnection(
    context,
    bearerToken(request.headers.authorization),
    queryString(request.query, 'id'),
  );
  if (access.ok) return access.connection;
  if (access.status === 401) reply.header('www-authenticate', 'Bearer');
  void reply.code(access.status).send();
  return null;
};

/** Routes for an encapsulated scope: the catch-all text parser must not leak into the rest of the app. */
export function registerLongPolling(scope: FastifyInstance, context: HubContext): void {
  // The client posts text/plain, but the body is protocol text whatever the header claims, never JSON to parse.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_POST_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  scope.get(HUB_PATH, async (request, reply) => {
    const connection = await connectionRequest(context, request, reply);
    if (!connection) return reply;
    if (!connection.transport) {
      if (connection.closed) return reply.code(404).send();
      // The first poll only binds the transport; the client waits for it before sending the handshake.
      const transport = new LongPollingTransport(connection, context.pollTimeoutMs);
      context.registry.attach(connection, transport);
      return reply.code(200).type(TEXT).send('');
    }
    if (!(connection.transport instanceof LongPollingTransport)) return reply.code(400).send();
    connection.transport.poll(reply);
    return reply;
  });

  scope.post(HUB_PATH, async (request, reply) => {
    const connection = await connectionRequest(context, request, reply);
    if (!connection) return reply;
    if (connection.closed) return reply.code(404).send();
    if (!(connection.transport instanceof LongPollingTransport)) return reply.code(400).send();
    if (typeof request.body === 'string') connection.receive(request.body);
    return reply.code(200).type(TEXT).send('');
  });

  scope.delete(HUB_PATH, async (request, reply) => {
    const connection = await connectionRequest(context, request, reply);
    if (!connection) return reply;
    connection.close({ frame: false });
    return reply.code(202).type(TEXT).send('');
  });
}
