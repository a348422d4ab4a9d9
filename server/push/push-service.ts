import fs from 'node:fs';
import { createPublicKey } from 'node:crypto';
import https from 'node:https';
import tls from 'node:tls';
import { parse } from 'node:url';
import webpush, { WebPushError } from 'web-push';
import { expressionBuilder } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { PushNotice } from '../../contract/system-notices.ts';
import type { ServerConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import type { PushSubscriptionBody } from '../../contract/schemas/push.ts';
import { KeyedDigest } from '../security/keyed-digest.ts';
import { VapidKeys } from './vapid-keys.ts';

/** What a push is about: the counsellor took the child's chat, or answered the child's mail. */
export type PushKind = 'your-turn' | 'thread';

/**
 * How long a push service keeps a push for a device that is off (seconds). 'Det är din tur' matters
 * while the counsellor waits in the chat: after a quarter of an hour it would only confuse. An
 * answered mail is worth knowing of the next day too.
 */
export const PUSH_TTL_SECONDS: Record<PushKind, number> = { 'your-turn': 15 * 60, thread: 24 * 3600 };
/** At most one push per conversation and kind in this span, whichever process sends it. */
export const PUSH_BURST_MS = 60_000;
/** Subscriptions one account keeps (a phone, a tablet, a computer...); past it the oldest goes. */
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 10;
/** A push service that does not answer in this time is given up on (a push is no promise). */
const SEND_TIMEOUT_MS = 10_000;
/** RFC 8030 §5.4: a Topic is at most 32 characters of the URL- and filename-safe base64 alphabet. */
export const TOPIC_LENGTH = 32;

/**
 * Whether `endpoint` is https on one of the configured push services' hosts. Entries (see
 * ServerConfig.pushServiceHosts): `host`, `*.domain` (its subdomains), each optionally with `:port`
 * or `:*` (any port); without one, only the default port (443) is allowed.
 *
 * The check is strict, because web-push connects to what Node's legacy `url.parse()` makes of the
 * endpoint, not what the WHATWG `URL` makes of it, and the two differ (`https://evil.example;.push
 * .apple.com/` is one host to `URL` and evil.example to `url.parse`): the endpoint must already be in
 * `URL`'s canonical form (no tab, backslash, escaped or upper-case host, `:443`...), its host only
 * letters, digits, dots and hyphens, with no user or password, and both parsers must agree on host
 * and port.
 */
export function isAllowedEndpoint(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.href !== endpoint || url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname;
  if (!/^[a-z0-9.-]+$/.test(host)) return false;
  let legacy: ReturnType<typeof parse>;
  try {
    legacy = parse(endpoint);
  } catch {
    return false;
  }
  if (legacy.protocol !== 'https:' || legacy.auth || legacy.hostname !== host) return false;
  if ((legacy.port ?? '') !== url.port) return false;
  return hosts.some((entry) => {
    const colon = entry.lastIndexOf(':');
    const name = colon === -1 ? entry : entry.slice(0, colon);
    const port = colon === -1 ? '' : entry.slice(colon + 1);
    const portAllowed = port === '*' || url.port === (port === '443' ? '' : port);
    const hostAllowed = name.startsWith('*.')
      ? host.endsWith(name.slice(1)) && host.length > name.length - 1
      : host === name;
    return portAllowed && hostAllowed;
  });
}

/**
 * Web Push (RFC 8030, 8291, 8292) to the child's devices while the app is closed. A push carries a
 * `PushNotice` and nothing else: a neutral title, the conversation's tag and a path of the app.
 *
 * Sending never holds up or fails the request that caused it: `notify` only queues the work, which
 * starts after the caller's write has committed, outside any transaction, with as little database
 * work as can be (one select of the subscriptions, one burst claim). The work is kept in `pending`
 * so that closing the app waits for it instead of leaving it running against a closed database.
 * Failures are logged without the endpoint or the keys.
 */
export class PushService {
  readonly keys: VapidKeys;
  private readonly pending = new Set<Promise<void>>();
  private readonly agent: https.Agent | undefined;
  /** Keys the Topic (see topicOf): the site's keyed digest, shared by its processes. */
  private readonly digest: KeyedDigest;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly config: ServerConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    this.keys = new VapidKeys(db, config.signingKeySecret);
    this.digest = new KeyedDigest(db, config.signingKeySecret);
    this.agent = config.pushTestCaFile
      ? new https.Agent({ ca: [...tls.rootCertificates, fs.readFileSync(config.pushTestCaFile, 'utf8')] })
      : undefined;
  }

  /** Stores this login's subscription, replacing its last one (the caller's only one per login). */
  async subscribe(principal: Principal, body: PushSubscriptionBody): Promise<void> {
    if (!isAllowedEndpoint(body.endpoint, this.config.pushServiceHosts)) throw new ApiError('validation');
    if (!isP256Point(body.keys.p256dh) || decoded(body.keys.auth).length !== 16) {
      throw new ApiError('validation');
    }
    const loginKey = loginKeyOf(principal);
    // The access token outlives its login by up to 15 minutes (a family that expired): such a login
    // subscribes nothing. One that ends after this check loses the subscription with it
    // (revokeFamily), and send() and maintenance check again in any case.
    const login = await this.db
      .selectNoFrom(liveLogin(nowIso(), loginKey).as('alive'))
      .executeTakeFirstOrThrow();
    if (!login.alive) throw new ApiError('unauthorized');
    const key = await this.keys.current();
    const row = {
      account_id: principal.accountId,
      vapid_key_id: key.id,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh.replace(/=+$/, ''),
      auth: body.keys.auth.replace(/=+$/, ''),
      created_date: nowIso(),
    };
    // One device, one subscription: a browser now signed in to another login (or account) no longer
    // hears the one it left without signing out.
    await this.db
      .deleteFrom('push_subscriptions')
      .where('endpoint', '=', body.endpoint)
      .where('login_key', '!=', loginKey)
      .execute();
    await this.db
      .insertInto('push_subscriptions')
      .values({ ...row, login_key: loginKey })
      .onConflict((oc) => oc.column('login_key').doUpdateSet(row))
      .execute();
    const surplus = this.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('account_id', '=', principal.accountId)
      .orderBy('created_date', 'desc')
      .orderBy('id', 'desc')
      .limit(1000)
      .offset(MAX_SUBSCRIPTIONS_PER_ACCOUNT);
    const old = (await surplus.execute()).map((r) => r.id);
    if (old.length > 0) await this.db.deleteFrom('push_subscriptions').where('id', 'in', old).execute();
  }

  /** Deletes this login's subscription (none is fine). */
  async unsubscribe(principal: Principal): Promise<void> {
    await this.db.deleteFrom('push_subscriptions').where('login_key', '=', loginKeyOf(principal)).execute();
  }

  /**
   * Pushes `notice` to every device of the account, unless this conversation and kind were pushed
   * within the last minute. Returns at once; the work runs after the caller's write.
   */
  notify(accountId: number, notice: PushNotice, kind: PushKind): void {
    if (this.closed) return;
    const work: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.send(accountId, notice, kind))
      .catch((error: unknown) => {
        this.log.warn({ code: codeOf(error), kind }, 'push: not sent');
      })
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  /** Resolves once every push queued so far has been sent or given up (tests wait on it, not on time). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Waits for every push under way (the app's onClose); none starts after. */
  async drain(): Promise<void> {
    this.closed = true;
    await this.settled();
    this.agent?.destroy();
  }

  private async send(accountId: number, notice: PushNotice, kind: PushKind): Promise<void> {
    const subscriptions = await this.db
      .selectFrom('push_subscriptions')
      .innerJoin('vapid_keys', 'vapid_keys.id', 'push_subscriptions.vapid_key_id')
      .select([
        'push_subscriptions.id',
        'push_subscriptions.endpoint',
        'push_subscriptions.p256dh',
        'push_subscriptions.auth',
        'vapid_keys.id as key_id',
        'vapid_keys.public_key',
        'vapid_keys.private_key',
      ])
      .where('push_subscriptions.account_id', '=', accountId)
      // A login that ended without a logout (its family expired, or unused past its idle time) hears
      // nothing more, though maintenance has not deleted its subscription yet.
      .where(liveLogin(nowIso()))
      .execute();
    if (subscriptions.length === 0) return;
    if (!(await this.claimBurst(`${kind}:${notice.tag}`))) return;
    // Exactly the notice, whatever else the caller's object holds.
    const payload = JSON.stringify({ title: notice.title, tag: notice.tag, url: notice.url });
    await Promise.all(
      subscriptions
        // Checked again: PUSH_SERVICE_HOSTS may have been narrowed since the subscription was made.
        .filter((s) => isAllowedEndpoint(s.endpoint, this.config.pushServiceHosts))
        .map(async (s) => {
          try {
            const topic = await this.topicOf(s.endpoint, notice.tag);
            await webpush.sendNotification(
              { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
              payload,
              {
                vapidDetails: {
                  subject: this.config.pushSubject,
                  publicKey: s.public_key,
                  privateKey: this.keys.reveal(s.key_id, s.private_key),
                },
                TTL: PUSH_TTL_SECONDS[kind],
                urgency: 'high',
                // A newer push of the conversation replaces one the push service still holds.
                topic,
                timeout: SEND_TIMEOUT_MS,
                ...(this.agent ? { agent: this.agent } : {}),
              },
            );
          } catch (error) {
            const status = error instanceof WebPushError ? error.statusCode : undefined;
            // RFC 8030 §7.3: the subscription is gone for good (the app was uninstalled, the
            // permission withdrawn): it is not tried again.
            if (status === 404 || status === 410) {
              await this.db.deleteFrom('push_subscriptions').where('id', '=', s.id).execute();
              return;
            }
            this.log.warn({ status, code: codeOf(error), kind }, 'push: the push service refused');
          }
        }),
    );
  }

  /**
   * The Topic of a notice's pushes to one subscription. The push service keeps one push per topic
   * for a device that is off, so a newer notice of the conversation replaces the last: one topic per
   * subscription and tag, in every process and after a restart. The header is not encrypted (the
   * payload is), so it is no tag (`conversation-42` would tell the push service which conversation,
   * and let it count a child's conversations), and differs between the child's devices (which it
   * would otherwise tie together): an HMAC of the endpoint and the tag under the site's secret,
   * base64url, cut to the 32 characters RFC 8030 allows (192 bits).
   */
  private async topicOf(endpoint: string, tag: string): Promise<string> {
    return (await this.digest.of(`push-topic\n${endpoint}\n${tag}`)).slice(0, TOPIC_LENGTH);
  }

  /** One statement, so that of processes pushing at once exactly one claims the minute. */
  private async claimBurst(key: string): Promise<boolean> {
    const now = Date.now();
    const claimed = await this.db
      .insertInto('push_bursts')
      .values({ key, sent_at: now })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ sent_at: now })
          .where('push_bursts.sent_at', '<=', now - PUSH_BURST_MS),
      )
      .returning('key')
      .executeTakeFirst();
    return claimed !== undefined;
  }
}

/** Drops burst records past their minute (maintenance). */
export async function prunePushBursts(db: Db, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('push_bursts')
    .where('sent_at', '<', now - PUSH_BURST_MS)
    .execute();
}

/** Deletes the subscriptions whose login has ended without a logout (maintenance). */
export async function prunePushSubscriptions(db: Db, now = Date.now()): Promise<void> {
  const ended = expressionBuilder<Database, 'push_subscriptions'>().not(
    liveLogin(new Date(now).toISOString()),
  );
  await db.deleteFrom('push_subscriptions').where(ended).execute();
}

/**
 * Whether a login (a refresh-token family: `loginKey`, or else the subscription's `login_key`) is
 * still alive at `now`: one of its refresh tokens is neither revoked nor expired (idle or family
 * end), and none was revoked (a revocation reaches every token of the family, but a successor
 * issued while it ran could escape it; TokenService.rotate refuses such a family too).
 */
function liveLogin(now: string, loginKey?: string) {
  const eb = expressionBuilder<Database, 'push_subscriptions'>();
  const family = () => {
    const tokens = eb.selectFrom('refresh_tokens').select('refresh_tokens.id');
    return loginKey === undefined
      ? tokens.whereRef('refresh_tokens.family_id', '=', 'push_subscriptions.login_key')
      : tokens.where('refresh_tokens.family_id', '=', loginKey);
  };
  return eb.and([
    eb.exists(
      family()
        .where('refresh_tokens.revoked_date', 'is', null)
        .where('refresh_tokens.expires_at', '>', now)
        .where('refresh_tokens.family_expires_at', '>', now),
    ),
    eb.not(eb.exists(family().where('refresh_tokens.revoked_date', 'is not', null))),
  ]);
}

/**
 * A subscription belongs to one login (the refresh-token family, the token's `sid`), so that the
 * login's end (logout, a refresh token used twice, a password change) ends it too. A token without
 * one (granted without offline_access) belongs to no login that could end it: refused.
 */
function loginKeyOf(principal: Principal): string {
  if (!principal.sessionId) throw new ApiError('forbidden');
  return principal.sessionId;
}

const decoded = (base64url: string) => Buffer.from(base64url.replace(/=+$/, ''), 'base64url');

/** An uncompressed point on P-256 (65 bytes, 0x04 first): what browsers give as p256dh. */
function isP256Point(base64url: string): boolean {
  const bytes = decoded(base64url);
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    // Refused unless the point lies on the curve.
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: bytes.subarray(1, 33).toString('base64url'),
        y: bytes.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/** A failure's code only: its message may name the push service's address. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown';
}
