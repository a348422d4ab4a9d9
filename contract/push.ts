/**
 * Web Push with the app closed (ours; SPEC says nothing): the child app's calls under /portal that
 * keep one push subscription per login. The server only ever sends a `PushNotice`
 * (contract/system-notices.ts): a neutral title, the conversation's tag and a path of the app.
 */
export const PUSH_PATHS = {
  /** GET: the server's VAPID public key, `PushKeyResponse`. */
  key: '/push/key',
  /** POST `PushSubscriptionBody` (204): this login's subscription, replacing its last one. DELETE (204): none. */
  subscriptions: '/push/subscriptions',
} as const;

export interface PushKeyResponse {
  /** The VAPID public key, an uncompressed P-256 point in base64url: the push subscription's applicationServerKey. */
  publicKey: string;
}
