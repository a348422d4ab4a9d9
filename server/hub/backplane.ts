import { Redis } from 'ioredis';
import { siteChannel } from './site.ts';

/** What crosses processes. Event frames travel pre-serialized so no process re-encodes them. */
export type BackplaneMessage =
  | { kind: 'entity'; entityKey: string; frame: string; at?: number }
  | { kind: 'account'; accountId: number; frame: string; at?: number }
  | { kind: 'disconnect'; tokenId: string }
  | { kind: 'disconnect-account'; accountId: number }
  | { kind: 'unsubscribe-staff'; entityKey: string; keepAccountId: number };

export interface Backplane {
  /** Resolves once the message is on its way to every process (this one included). */
  publish(message: BackplaneMessage): Promise<void>;
  close(): Promise<void>;
}

export type Deliver = (message: BackplaneMessage) => void;

/** Single process: publishing is delivering. */
export function createLocalBackplane(deliver: Deliver): Backplane {
  return {
    publish: async (message) => deliver(message),
    close: async () => undefined,
  };
}

const isBackplaneMessage = (value: unknown): value is BackplaneMessage => {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  switch (m.kind) {
    case 'entity':
      return typeof m.entityKey === 'string' && typeof m.frame === 'string';
    case 'account':
      return typeof m.accountId === 'number' && typeof m.frame === 'string';
    case 'disconnect':
      return typeof m.tokenId === 'string';
    case 'disconnect-account':
      return typeof m.accountId === 'number';
    case 'unsubscribe-staff':
      return typeof m.entityKey === 'string' && typeof m.keepAccountId === 'number';
    default:
      return false;
  }
};

export interface BackplaneHealth {
  /** Redis was lost after the backplane had been up. */
  lost(): void;
  /** Both connections are back after a loss: events published meanwhile never reached some processes. */
  recovered(): void;
}

const NO_HEALTH: BackplaneHealth = { lost: () => undefined, recovered: () => undefined };

/**
 * Several processes: every message goes through one Redis channel of the site (server/hub/site.ts)
 * and each process, the publisher too, delivers what it receives to its own connections. One channel
 * rather than one per entity keeps subscription bookkeeping (and its races) out of the picture; each
 * process simply drops keys it has no subscribers for, which is a map lookup. Every frame names its
 * site too, and a frame of another site is dropped: two sites on one Redis (a shared server, another
 * site publishing on this channel by mistake) never deliver each other's events, whose entity keys and
 * account ids mean other children there.
 */
export function createRedisBackplane(
  redisUrl: string,
  site: string,
  deliver: Deliver,
  health: BackplaneHealth = NO_HEALTH,
): Backplane {
  const channel = siteChannel(site);
  let foreignWarned = false;
  // A subscribed ioredis connection cannot publish, hence two.
  const publisher = new Redis(redisUrl, { lazyConnect: false });
  const subscriber = new Redis(redisUrl, { lazyConnect: false });
  /** Both have been ready once: from then on a lost connection is an outage, not a slow start. */
  let started = false;
  let outage = false;
  /** Our own close (shutdown) closes both connections too; that is no outage. */
  let closing = false;
  const bothReady = () => publisher.status === 'ready' && subscriber.status === 'ready';
  const lose = (reason: string) => {
    // ioredis reports every failed reconnect attempt; one warning per outage is enough.
    if (!started || outage || closing) return;
    outage = true;
    health.lost();
    console.warn(`hub: redis backplane lost (${reason}); events go to this process's connections only`);
  };
  for (const client of [publisher, subscriber]) {
    client.on('error', (error: Error) => lose(error.message));
    client.on('close', () => lose('connection closed'));
    client.on('ready', () => {
      if (!bothReady()) return;
      if (!started) {
        started = true;
        // What a Redis ACL shared with other sites limits this site to (docs/operations.md).
        console.info(`hub: redis backplane on channel ${channel}`);
        return;
      }
      if (!outage) return;
      outage = false;
      console.info('hub: redis backplane reconnected');
      health.recovered();
    });
  }

  subscriber.on('message', (received: string, payload: string) => {
    if (received !== channel) return;
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      message = null;
    }
    if (!isBackplaneMessage(message)) {
      console.warn('hub: ignoring malformed backplane message');
      return;
    }
    if ((message as { site?: unknown }).site !== site) {
      if (!foreignWarned) {
        foreignWarned = true;
        console.warn("hub: dropping backplane frames of another site on this site's channel");
      }
      return;
    }
    try {
      deliver(message);
    } catch (error) {
      console.error('hub: delivering a backplane message failed', error);
    }
  });

  // Publishing before our own subscription is active would skip this process's connections.
  let subscribed: Promise<void> | null = null;
  const ensureSubscribed = (): Promise<void> => {
    subscribed ??= subscriber.subscribe(channel).then(
      () => undefined,
      (error: unknown) => {
        subscribed = null;
        throw error;
      },
    );
    return subscribed;
  };
  ensureSubscribed().catch(() => undefined); // surfaced by the error listener and by the next publish

  return {
    async publish(message) {
      // While Redis is away a write must not wait for it (ioredis would hold the command until it
      // is back): this process's own connections get the event at once, and the others are told
      // to reconnect and catch up once Redis returns (health.recovered).
      if (outage) {
        deliver(message);
        return;
      }
      await ensureSubscribed();
      await publisher.publish(channel, JSON.stringify({ ...message, site }));
    },
    async close() {
      closing = true;
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
