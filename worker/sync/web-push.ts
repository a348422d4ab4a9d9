import { PUSH_PATHS, type PushKeyResponse } from '../../contract/push.ts';
import type { PushSubscriptionBody } from '../../contract/schemas/push.ts';
import { failure, ok, type Result, type WriteResult } from '../base/result.ts';
import { loadErrorOf, writeErrorOf } from './load-result.ts';
import type { SyncContext } from './sync-context.ts';
import { everyVariant, type HubHandlers, type SyncModule } from './sync-module.ts';

/**
 * Web Push with the app closed (contract/push.ts; docs/decisions.md, "Web Push on the device"): the
 * calls that need the child's token. The page does the browser's part (a SharedWorker has no
 * `navigator.serviceWorker`, so no PushManager: worker/client/web-push.ts) and hands the
 * subscription here. At a sign-out on purpose the subscription is dropped on the server before the
 * tokens are revoked; the server drops it at logout too, so a failed call changes nothing.
 */
export class WebPushSync implements SyncModule {
  readonly commands = {
    /** The server's VAPID public key (base64url): the subscription's applicationServerKey. */
    pushKey: () => this.pushKey(),
    /** This login's subscription, replacing the one the server had (a new browser, a new key). */
    savePushSubscription: (subscription: PushSubscriptionBody) => this.save(subscription),
  };

  // Nothing is stored: the browser keeps the subscription, the server the login's copy of it.
  readonly tables: SyncModule['tables'] = [];
  readonly runsIn = everyVariant;
  readonly hears: HubHandlers = {};

  constructor(private readonly ctx: SyncContext) {}

  private async pushKey(): Promise<Result<string, 'offline' | 'failed' | 'not_found' | 'forbidden'>> {
    try {
      const { publicKey } = await this.ctx.http.get<PushKeyResponse>(PUSH_PATHS.key);
      return typeof publicKey === 'string' && publicKey ? ok(publicKey) : failure('failed');
    } catch (error) {
      return failure(loadErrorOf(error));
    }
  }

  private async save(subscription: PushSubscriptionBody): Promise<WriteResult> {
    // Only what the contract accepts: a browser may add fields of its own to toJSON().
    const body: PushSubscriptionBody = {
      endpoint: subscription.endpoint,
      ...(subscription.expirationTime !== undefined ? { expirationTime: subscription.expirationTime } : {}),
      keys: { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth },
    };
    try {
      await this.ctx.http.post(PUSH_PATHS.subscriptions, body);
      return ok(undefined);
    } catch (error) {
      return failure(writeErrorOf(error));
    }
  }

  async signingOut(): Promise<void> {
    try {
      await this.ctx.http.delete(PUSH_PATHS.subscriptions, { report: false });
    } catch (error) {
      // Offline, or the token no longer works: the server drops it at logout or when the login ends.
      console.warn('Push subscription not deleted', error);
    }
  }
}
