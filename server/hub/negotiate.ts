import type { FastifyInstance } from 'fastify';
import { HUB_PATH } from '../../contract/hub.ts';
import { bearerToken } from './access.ts';
import type { HubContext } from './access.ts';

/** ServerSentEvents is left out on purpose: two transports are enough to support and to test. */
const AVAILABLE_TRANSPORTS = [
  { transport: 'WebSockets', transferFormats: ['Text'] },
  { transport: 'LongPolling', transferFormats: ['Text'] },
] as const;

export function registerNegotiate(scope: FastifyInstance, context: HubContext): void {
  scope.post(`${HUB_PATH}/negotiate`, async (request, reply) => {
    if (context.isClosing()) return reply.code(503).send();
    const token = bearerToken(request.headers.authorization);
    const principal = token ? await context.authenticate(token) : null;
    if (!principal) return reply.code(401).header('www-authenticate', 'Bearer').send();
    const connection = context.createConnection(principal);
    if (connection === 429) return reply.code(429).header('retry-after', '60').send();
    // Version 1 always: the connectionToken (secret) is then distinct from the connectionId (shareable).
    return reply.header('cache-control', 'no-store').send({
      negotiateVersion: 1,
      connectionId: connection.connectionId,
      connectionToken: connection.connectionToken,
      availableTransports: AVAILABLE_TRANSPORTS,
    });
  });
}
