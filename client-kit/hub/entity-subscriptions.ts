import type { HubConnection } from '@microsoft/signalr';
import { HUB_METHODS } from '../../contract/hub.ts';
import { SUBSCRIBE_RETRIES } from '../../contract/timings.ts';
import { wait, type Timer } from './timer.ts';

/** SPEC §4: 3 tries 1.5 s apart, or 30 tries 5 s apart for the group chat window. */
export type SubscribeMode = keyof typeof SUBSCRIBE_RETRIES;

export interface EntitySubscriptionsDeps {
  timer: Timer;
  /** The connection while it is connected, else null. */
  connected(): HubConnection | null;
  onError?(message: string): void;
}

/**
 * Entity subscriptions counted per key. The first holder of a key sends SubscribeToEntity (with the
 * retries of SPEC §4), later holders share it, and the last one to let go sends
 * UnsubscribeFromEntity. A new connection starts with none, so every held key is subscribed again
 * after each (re)connect.
 */
export class EntitySubscriptions {
  private readonly holders = new Map<string, number>();
  /** Keys the current connection has accepted. */
  private readonly confirmed = new Set<string>();
  /** One SubscribeToEntity in flight per key and connection, which every caller for that key shares. */
  private readonly pending = new Map<string, { connection: HubConnection; attempt: Promise<boolean> }>();

  constructor(private readonly deps: EntitySubscriptionsDeps) {}

  /** The keys someone holds. */
  get keys(): string[] {
    return [...this.holders.keys()];
  }

  /** Holds `entityKey` once more; true once the server has accepted it, false after the last try. */
  subscribe(entityKey: string, mode: SubscribeMode = 'default'): Promise<boolean> {
    this.holders.set(entityKey, (this.holders.get(entityKey) ?? 0) + 1);
    return this.confirm(entityKey, mode);
  }

  /**
   * Makes sure a held key is subscribed on the current connection: true at once when it is,
   * otherwise SubscribeToEntity with the retries of `mode`. The key stays held after a failure, so
   * the next connection tries it again.
   */
  async confirm(entityKey: string, mode: SubscribeMode = 'default'): Promise<boolean> {
    const { tries, waitMs } = SUBSCRIBE_RETRIES[mode];
    for (let attempt = 1; attempt <= tries; attempt++) {
      if (!this.holders.has(entityKey)) return false;
      if (await this.tryOnce(entityKey, 'SubscribeToEntity')) return true;
      if (attempt < tries) await wait(this.deps.timer, waitMs);
    }
    return false;
  }

  /** Lets go of `entityKey` once; the last holder's release unsubscribes on the server. */
  async unsubscribe(entityKey: string): Promise<void> {
    const left = (this.holders.get(entityKey) ?? 0) - 1;
    if (left > 0) {
      this.holders.set(entityKey, left);
      return;
    }
    if (left < 0) return;
    this.holders.delete(entityKey);
    this.confirmed.delete(entityKey);
    const connection = this.deps.connected();
    if (connection) await connection.invoke(HUB_METHODS.unsubscribe, entityKey).catch(() => undefined);
  }

  /** The connection is gone: whatever it had accepted must be asked for again. */
  connectionLost(): void {
    this.confirmed.clear();
  }

  /** After a (re)connect: one SubscribeToEntity for every held key, one after the other. */
  async resubscribeAll(): Promise<void> {
    this.confirmed.clear();
    for (const key of this.keys) await this.tryOnce(key, 'Re-subscribe');
  }

  private tryOnce(entityKey: string, errorLabel: string): Promise<boolean> {
    if (this.confirmed.has(entityKey)) return Promise.resolve(true);
    const connection = this.deps.connected();
    if (!connection) return Promise.resolve(false);
    const inFlight = this.pending.get(entityKey);
    if (inFlight?.connection === connection) return inFlight.attempt;
    const attempt = connection
      .invoke(HUB_METHODS.subscribe, entityKey)
      .then(
        () => {
          // Released meanwhile, or accepted by a connection that has since gone: not confirmed.
          if (this.holders.has(entityKey) && this.deps.connected() === connection) {
            this.confirmed.add(entityKey);
          }
          return true;
        },
        (error: unknown) => {
          this.deps.onError?.(`${errorLabel} ${entityKey}: ${String(error)}`);
          return false;
        },
      )
      .finally(() => {
        if (this.pending.get(entityKey)?.attempt === attempt) this.pending.delete(entityKey);
      });
    this.pending.set(entityKey, { connection, attempt });
    return attempt;
  }
}
