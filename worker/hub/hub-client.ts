import { HubKeeper, type HubKeeperOptions } from '../../client-kit/hub/hub-keeper.ts';
import type { SubscribeMode } from '../../client-kit/hub/entity-subscriptions.ts';
import type { HubState } from '../client/session.ts';
import type { Clock } from '../clock.ts';

/** What the worker gives its connection: client-kit's options, on the worker's clock. */
export type HubDeps = Omit<HubKeeperOptions, 'timer'> & { clock: Clock };

/**
 * The worker's one SignalR connection (client-kit's HubKeeper: SPEC reconnect delays, restarts,
 * re-subscription after each reconnect). The worker counts who wants an entity itself (per tab, per
 * open conversation), so here a key is held once: subscribing again only makes sure the server has
 * it, and one unsubscribe lets it go.
 */
export class HubClient {
  private readonly keeper: HubKeeper;
  private readonly held = new Set<string>();

  constructor(deps: HubDeps) {
    this.keeper = new HubKeeper({ ...deps, timer: deps.clock });
  }

  get state(): HubState {
    return this.keeper.state;
  }

  start(): Promise<void> {
    return this.keeper.start();
  }

  stop(): Promise<void> {
    return this.keeper.stop();
  }

  /** See HubKeeper.reconnectNow: the network is back, do not wait out a reconnect delay. */
  reconnectNow(): Promise<void> {
    return this.keeper.reconnectNow();
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
