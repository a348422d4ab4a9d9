import type { PushKeyResponse } from '../../contract/push.ts';
import { PUSH_PATHS } from '../../contract/push.ts';
import { PushSubscriptionBody } from '../../contract/schemas/push.ts';
import type { Api, AppContext } from '../context.ts';
import { principalOf } from '../http/guard.ts';

/**
 * Web Push for the child app (contract/push.ts): the VAPID key to subscribe with, and this login's
 * one subscription. Children only (staff tokens are refused by the child API), and no answer ever
 * holds an endpoint: it leads to one device.
 */
export function registerPushRoutes(app: Api, ctx: AppContext) {
  app.get(PUSH_PATHS.key, async (): Promise<PushKeyResponse> => {
    const { publicKey } = await ctx.push.keys.current();
    return { publicKey };
  });

  app.post(
    PUSH_PATHS.subscriptions,
    { preHandler: [ctx.limits.preHandler('pushSubscription')], schema: { body: PushSubscriptionBody } },
    async (req, reply) => {
      await ctx.push.subscribe(principalOf(req), req.body);
      return reply.code(204).send();
    },
  );

  app.delete(PUSH_PATHS.subscriptions, async (req, reply) => {
    await ctx.push.unsubscribe(principalOf(req));
    return reply.code(204).send();
  });
}
