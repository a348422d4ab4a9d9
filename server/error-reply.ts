import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './errors.ts';

/**
 * The server's error handler: every refusal is `{ error, message }` with a Swedish message from
 * server/errors.ts; technical detail goes to the log only.
 */
export function replyWithError(error: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) return reply.code(error.status).send(error.toBody());
  // A body, query or parameter that does not fit its route schema.
  if ((error as { validation?: unknown }).validation) {
    return reply.code(400).send(new ApiError('validation').toBody());
  }
  const status = (error as { statusCode?: number }).statusCode;
  if (status === 413) return reply.code(413).send(new ApiError('payload_too_large').toBody());
  // A body in a format the route does not take (the API reads JSON; a form post is refused here).
  if (status === 415) return reply.code(415).send(new ApiError('unsupported_media').toBody());
  if (status && status >= 400 && status < 500) {
    return reply
      .code(status)
      .send({ error: 'bad_request', message: new ApiError('bad_request').toBody().message });
  }
  // The database is restarting or failing over: a retryable 503 that says when to try again, not a
  // 500 that reads as a fault of the request. A proxy in front may try another process (nginx's
  // proxy_next_upstream http_503, harness/cluster/); a client's outbox waits Retry-After.
  if (isDatabaseUnavailable(error)) {
    // Expected while it lasts, and one line per refused request: its code, not its stack.
    const { code, message } = error as { code?: string; message?: string };
    req.log.warn(`database unavailable (${code || message})`);
    return reply
      .code(503)
      .header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
      .send(new ApiError('unavailable').toBody());
  }
  req.log.error({ err: error }, 'request failed');
  return reply.code(500).send(new ApiError('internal').toBody());
}
