import type { Clock } from '../clock.ts';
import type { PeerMessage } from '../portal-worker-deps.ts';

/** A fallback worker whose tab shows a live chat tells the leader so again this often... */
export const PEER_ATTENTION_REFRESH_MS = 20_000;
/** ...and the leader forgets a word it was not told again within this (the tab closed unseen). */
const PEER_ATTENTION_EXPIRY_MS = 3 * PEER_ATTENTION_REFRESH_MS;

export interface PeerAttentionDeps {
  clock: Clock;
  /** This worker among its peers. */
  workerId: string;
  notifyPeers?(message: PeerMessage): void;
  /** This worker holds the hub (it listens; it tells nobody). */
  isRunner(): boolean;
}

/**
 * Whether the tabs of the other data workers (the dedicated-worker fallback: one worker per tab)
 * show a live chat or an open group chat, for the leader, which checks the line at the live pace
 * while one does. A follower tells the leader when its own tabs start or stop showing one, and again
 * every PEER_ATTENTION_REFRESH_MS while they do; the leader forgets a worker that was not heard of
 * again in time, whose tab may have closed without a word.
 */
export class PeerAttention {
  /** The peers whose tab shows a live chat, with when they last said so (the leader's view). */
  private readonly peers = new Map<string, number>();
  /** What this worker last told the leader of its own tabs, and the timer that tells it again. */
  private told = false;
  private refresh: unknown = null;

  constructor(private readonly deps: PeerAttentionDeps) {}

  /** Some peer's tab shows a live chat now (the leader's view). */
  any(): boolean {
    const now = this.deps.clock.now();
    for (const [worker, at] of this.peers) {
      if (now - at > PEER_ATTENTION_EXPIRY_MS) this.peers.delete(worker);
    }
    return this.peers.size > 0;
  }

  /** A peer said its tab shows a live chat, or no longer does. */
  heard(worker: string, on: boolean): void {
    if (on) this.peers.set(worker, this.deps.clock.now());
    else this.peers.delete(worker);
  }

  /** This worker's own tabs show one, or not: the leader is told when that changed. */
  own(on: boolean): void {
    if (on === this.told) return;
    this.told = on;
    this.tell();
  }

  /** A new leader took the hub: it is told again what this worker's tabs show. */
  tellAgain(): void {
    if (this.told) this.tell();
  }

  /** This worker became the leader: it tells nobody any more. */
  stopTelling(): void {
    if (this.refresh !== null) this.deps.clock.clearTimeout(this.refresh);
    this.refresh = null;
  }

  private tell(): void {
    this.stopTelling();
    this.deps.notifyPeers?.({ type: 'attention', worker: this.deps.workerId, on: this.told });
    if (this.told && !this.deps.isRunner()) {
      this.refresh = this.deps.clock.setTimeout(() => this.tell(), PEER_ATTENTION_REFRESH_MS);
    }
  }
}
