import { HubKeeper, type HubKeeperOptions } from '../../client-kit/hub/hub-keeper.ts';
import type { SubscribeMode } from '../../client-kit/hub/entity-subscriptions.ts';
import type { HubState } from '../base/session.ts';
import type { Clock } from '../clock.ts';
import { Liveness, type LivenessDeps } from './liveness.ts';

/** What the worker gives its connection: client-kit's options, on the worker's clock. */
export type HubDeps = Omit<HubKeeperOptions, 'timer' | 'now'> & {
  clock: Clock;
  /** What the liveness check asks of the worker (worker/hub/liveness.ts); none: SignalR's defaults. */
  liveness?: Omit<LivenessDeps, 'clock' | 'hub'>;
};

/**
 * The worker's one SignalR connection (client-kit's HubKeeper: SPEC reconnect delays, restarts,
 * re-subscription after each reconnect), with the liveness check that finds a dead line in seconds
 * while it matters. The worker counts who wants an entity itself (per tab, per open conversation),
 * so here a key is held once: subscribing again only makes sure the server has it, and one
 * unsubscribe lets it go.
 */
export class HubClient {
  private readonly keeper: HubKeeper;
  private readonly held = new Set<string>();
  private readonly liveness: Liveness | null;

  constructor(deps: HubDeps) {
    const { liveness, clock, ...options } = deps;
    this.keeper = new HubKeeper({
      ...options,
      timer: clock,
      now: () => clock.now(),
      onHeard: () => {
        this.liveness?.heard();
        options.onHeard?.();
      },
    });
    this.liveness = liveness ? new Liveness({ ...liveness, clock, hub: this.keeper }) : null;
  }

  get state(): HubState {
    return this.keeper.state;
  }

  start(): Promise<void> {
    this.liveness?.start();
    return this.keeper.start();
  }

  stop(): Promise<void> {
    this.liveness?.stop();
    return this.keeper.stop();
  }

  /** See HubKeeper.reconnectNow: the network is back, do not wait out a reconnect delay. */
  reconnectNow(): Promise<void> {
    return this.keeper.reconnectNow();
  }

  /** Whether the line matters may have changed (a chat came into view, a send waits). */
  wake(): void {
    this.liveness?.wake();
  }

  /** A sign the network changed: the line is checked at once (see Liveness.hint). */
  hint(): void {
    this.liveness?.hint();
  }

  /** A call got no answer at all: the line is checked at once, and caught up from once it answers. */
  noAnswer(): void {
    this.liveness?.noAnswer();
  }

  /** SubscribeToEntity with the retries of SPEC §4; the key is re-subscribed after every reconnect. */
  subscribe(entityKey: string, mode: SubscribeMode = 'default'): Promise<boolean> {
    if (this.held.has(entityKey)) return this.keeper.confirm(entityKey, mode);
    this.held.add(entityKey);
    return this.keeper.subscribe(entityKey, mode);
  }

  async unsubscribe(entityKey: string): Promise<void> {
    if (!this.held.delete(entityKey)) return;
    await this.keeper.unsubscribe(entityKey);
  }
}
