import type { FastifyReply, FastifyRequest } from 'fastify';
import { AssistantAskBody } from '../../contract/schemas/assistant.ts';
import { featuresOf } from '../config.ts';
import { acceptsIssuer, siteOrigin, type AppContext, type RouteModule } from '../context.ts';
import { ApiError } from '../errors.ts';
import { addressKey } from '../security/client-address.ts';
import { issueAssistantToken, verifyAssistantToken } from './assistant-token.ts';
import { AssistantContentStore } from './content-store.ts';
import { matchQuestion } from './match.ts';

/** Whether this server offers the virtual assistant (the Assistent and Main variants). */
export const offersAssistant = (ctx: AppContext) => featuresOf(ctx.config).assistant;

/** The bearer must be an assistant token (a user's token is no key here, and the assistant's no key elsewhere). */
async function requireAssistantToken(ctx: AppContext, req: FastifyRequest): Promise<string> {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const token = match?.[1];
  if (!token) throw new ApiError('unauthorized');
  const subject = await verifyAssistantToken(ctx.keys, token, (issuer) => acceptsIssuer(ctx.config, issuer));
  if (!subject) throw new ApiError('unauthorized');
  return subject;
}

/**
 * The virtual assistant, public calls of SPEC §6 under {api}/api/assistant: a token for
 * anyone (limited per address), the guided content and the free-text match, both behind that token.
 * What a child asks is matched in memory and answered; it is not stored and not logged (the
 * request log carries method and path only).
 */
export const registerAssistantRoutes: RouteModule = (app, ctx) => {
  if (!offersAssistant(ctx)) return;
  const store = new AssistantContentStore(ctx.config.assistantContentFile, app.log);
  const authenticate = async (req: FastifyRequest) => {
    req.assistantSubject = await requireAssistantToken(ctx, req);
  };
  const perToken = (name: 'assistantAsk') => async (req: FastifyRequest, reply: FastifyReply) => {
    // The per-user limit first: the token's random subject stands for the one anonymous person,
    // and what it refuses is not counted against the address (a school class shares one).
    await ctx.limits.consume('assistantAskPerToken', null, req.assistantSubject ?? '', reply);
    await ctx.limits.consume(name, null, addressKey(req.ip), reply);
  };

  app.post(
    '/api/assistant/token',
    { config: { public: true }, preHandler: ctx.limits.preHandler('assistantToken') },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return issueAssistantToken(ctx.keys, siteOrigin(ctx.config, req));
    },
  );

  app.get(
    '/api/assistant/content',
    { config: { public: true }, onRequest: authenticate },
    async (req, reply) => {
      const loaded = await store.get();
      // Public content, the same for everyone: the client asks again with If-None-Match.
      reply.header('Cache-Control', 'no-cache').header('ETag', loaded.etag);
      if (req.headers['if-none-match'] === loaded.etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(loaded.json);
    },
  );

  app.post(
    '/api/assistant/ask',
    {
      config: { public: true },
      onRequest: authenticate,
      preHandler: perToken('assistantAsk'),
      bodyLimit: 4096,
      schema: { body: AssistantAskBody },
    },
    async (req) => matchQuestion((await store.get()).content, req.body.question),
  );
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The anonymous subject of a verified assistant token. */
    assistantSubject?: string;
  }
}
