import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

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
  req.log.error({ err: error }, 'request failed');
  return reply.code(500).send(new ApiError('internal').toBody());
}
