import { Type, type Static } from '@sinclair/typebox';

/** Base64url as browsers write a subscription's keys (padding tolerated). */
const base64url = (minLength: number, maxLength: number) =>
  Type.String({ minLength, maxLength, pattern: '^[A-Za-z0-9_-]+={0,2}$' });

/**
 * POST /portal/push/subscriptions: a browser's `PushSubscription.toJSON()`. The endpoint must be
 * https (the server also checks its host against the known push services); p256dh is a P-256 point
 * (65 bytes), auth 16 bytes. Nothing else is accepted.
 */
export const PushSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({ minLength: 9, maxLength: 2048, pattern: '^https://' }),
    expirationTime: Type.Optional(Type.Union([Type.Null(), Type.Number({ minimum: 0 })])),
    keys: Type.Object(
      { p256dh: base64url(86, 90), auth: base64url(21, 24) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;
