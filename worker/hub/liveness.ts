import type { HubState } from '../base/session.ts';
import type { Clock } from '../clock.ts';

/**
 * While it matters, a ping goes out this often: a dead line is found within LIVE_DEAD_AFTER_MS of
 * dying, whatever the phase of the pings.
 */
export const LIVE_PING_INTERVAL_MS = 1000;
/** No answer to the oldest unanswered ping (and nothing else heard) for this long: the line is dead. */
export const LIVE_DEAD_AFTER_MS = 2500;
/** While the connection is down and it matters, the server is asked this often whether it answers... */
export const DOWN_PROBE_INTERVAL_MS = 500;
/** ...and given this long to answer. */
export const DOWN_PROBE_TIMEOUT_MS = 1000;
/**
 * Probes sent side by side the moment the line is found dead: as many as the connections a browser
 * keeps to one server over HTTP/1.1, so that its idle ones (dead with the line) cannot all be reused.
 */
export const DETECTION_PROBES = 6;
/**
 * A start under way for longer than this (or four probe round trips, if longer) when the server
 * answers a probe was made into a dead line (a reused socket that died silently) and is made again.
 */
export const START_PATIENCE_MS = 1000;
/** A call unanswered on a line that carries pings is caught up from at most this often. */
export const NO_ANSWER_RECOVERY_GAP_MS = 5000;
/** After a hint (the network changed, a call got no answer), the check goes on this long at the live pace. */
export const HINT_CHECK_MS = LIVE_DEAD_AFTER_MS + LIVE_PING_INTERVAL_MS;

export interface LivenessDeps {
  clock: Clock;
  hub: {
    readonly state: HubState;
    /** When the start under way began, or null. */
    readonly startedAt: number | null;
    /** Sends a ping; true when it was answered within `timeoutMs` (anything heard counts too). */
    ping(timeoutMs: number): Promise<boolean>;
    /** Drops the connection (also one that looks connected) and starts a new one at once. */
    reconnectNow(options: { dead: boolean }): Promise<void>;
  };
  /** Whether a dead line costs the child now: a live chat or group chat in view, or a send waiting. */
  matters(): boolean;
  /**
   * The line was found dead at `at`: every call under way went into it and is given up now (a socket
   * that died silently never answers, and held calls would keep the browser's few connections busy).
   */
  lineLost(at: number): void;
  /** Whether the server answers plain HTTP within `timeoutMs` (a 2xx). */
  serverAnswers(timeoutMs: number): Promise<boolean>;
  /**
   * The line works again after it was found dead: what was sent before `sentBefore` went into the
   * dead line (given up now), what was missed is fetched, what waits is sent.
   */
  recovered(sentBefore: number): void;
  onError?(message: string): void;
}

/**
 * Finds a dead connection in seconds while it matters, and the network's return in one: the phone's
 * weak signal and the Wi-Fi without internet leave the socket open and silent, and SignalR's own
 * keep-alive (a ping every 15 s, given up after 30 s) would leave the child waiting half a minute.
 *
 * While it matters (`matters()`, or for a short while after a hint): a hub `Ping` every second; when
 * the oldest unanswered one is 2.5 s old and nothing at all came meanwhile, the connection is dropped
 * and started again. While the connection is down (or a start hangs), the server's `/healthz` is asked
 * every half second; the first answer gives up every call sent into the dead line, restarts a start
 * made into it and catches up by cursor, without waiting out any backoff. Otherwise nothing runs
 * here: SignalR's defaults hold.
 */
export class Liveness {
  private timer: unknown = null;
  /** When the oldest ping not yet answered went out (null: everything sent was answered). */
  private unansweredSince: number | null = null;
  /** Until when a hint keeps the check going at the live pace. */
  private hintUntil = 0;
  /** The line was found dead, or the server did not answer: the next answer is a recovery. */
  private down = false;
  /** The checks themselves found the line dead since the last recovery (not only a call unanswered). */
  private foundDead = false;
  /** When the last recovery was told. */
  private recoveredAt = -Infinity;
  /** When the line was last found dead (a ping or a probe unanswered). */
  private deadSeenAt = -Infinity;
  /** Probes under way. */
  private probes = 0;
  private running = false;

  constructor(private readonly deps: LivenessDeps) {}

  /** The connection is wanted (signed in, and this worker holds the hub). */
  start(): void {
    this.running = true;
    this.wake();
  }

  stop(): void {
    this.running = false;
    this.unansweredSince = null;
    this.down = false;
    this.cancel();
  }

  /** Something came on the connection: it is alive. */
  heard(): void {
    this.unansweredSince = null;
  }

  /**
   * Whether it matters may have changed (a chat came into view, a send began to wait): the checks
   * begin at once if it now does.
   */
  wake(): void {
    if (!this.running || this.timer !== null) return;
    if (this.deps.matters() || this.deps.clock.now() < this.hintUntil) this.schedule(0);
  }

  /**
   * A sign the network changed (`online`, the tab shown or focused, a call that got no answer while
   * the hub looked alive): the line is checked at once, and for a few seconds at the live pace.
   */
  hint(): void {
    if (!this.running) return;
    this.hintUntil = this.deps.clock.now() + HINT_CHECK_MS;
    this.cancel();
    this.schedule(0);
  }

  /**
   * A call met a line that did not answer: the next answer is a recovery to catch up from. Only a
   * line found dead by the checks themselves makes calls under way count as lost (a slow server
   * can leave one call unanswered on a line that works).
   */
  noAnswer(): void {
    this.down = true;
    this.hint();
  }

  private cancel(): void {
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null;
      void this.tick().catch((error: unknown) => this.deps.onError?.(`Liveness: ${String(error)}`));
    }, ms);
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    const { clock, hub } = this.deps;
    const now = clock.now();
    if (!this.deps.matters() && now >= this.hintUntil) {
      // Nothing waits on the line: SignalR's own keep-alive watches it (a loss found is kept, so
      // the next check that finds the server catches up).
      this.unansweredSince = null;
      return;
    }
    if (hub.state === 'Connected') {
      if (this.unansweredSince !== null && now - this.unansweredSince >= LIVE_DEAD_AFTER_MS) {
        this.deps.onError?.('Hub line dead: no answer to a ping');
        this.unansweredSince = null;
        this.lineDead(now);
        this.deps.lineLost(now);
        void hub.reconnectNow({ dead: true });
        // The line may be back already (a short flap): asked at once, by several probes side by
        // side. The browser reuses its idle connections first, and after a silent loss they are as
        // dead as the socket: the first probes take them (and are given up, which closes them),
        // the rest open fresh connections, which answer if the line is back.
        for (let i = 0; i < DETECTION_PROBES; i++) void this.probe();
        this.schedule(DOWN_PROBE_INTERVAL_MS);
        return;
      } else {
        this.unansweredSince ??= now;
        void hub.ping(LIVE_DEAD_AFTER_MS).then((answered) => {
          // Connected after a loss (a restart that worked, a call that got no answer): once the
          // line has carried a ping, what was missed is fetched.
          if (answered && this.down && this.probes === 0 && this.mayRecover()) this.recover(now);
        });
      }
      // The next ping, or the moment the oldest unanswered one is given up, whichever is sooner.
      const giveUpIn =
        this.unansweredSince === null ? Infinity : this.unansweredSince + LIVE_DEAD_AFTER_MS - now;
      this.schedule(Math.max(0, Math.min(LIVE_PING_INTERVAL_MS, giveUpIn)));
      return;
    }
    // Down, connecting or reconnecting: whether the server answers decides what to do. Probes
    // overlap (one every half second, each given a second), so the first after the line's return is
    // never held up behind one that went into the dead line.
    this.unansweredSince = null;
    this.schedule(DOWN_PROBE_INTERVAL_MS);
    await this.probe();
  }

  private async probe(): Promise<void> {
    const { clock, hub } = this.deps;
    this.probes++;
    try {
      const sentAt = clock.now();
      if (!(await this.deps.serverAnswers(DOWN_PROBE_TIMEOUT_MS))) {
        this.lineDead(clock.now());
        // What was sent before this probe has had as long without an answer, on a line known
        // dead: given up, so that it holds none of the browser's few connections.
        this.deps.lineLost(sentAt);
        return;
      }
      const answeredAt = clock.now();
      const patience = Math.max(START_PATIENCE_MS, 4 * (answeredAt - sentAt));
      // A start that began while the line was known dead, or that has hung for a while, went into
      // the dead line: it is dropped for one made now. One that began since is given its chance.
      const began = hub.startedAt;
      if (
        hub.state !== 'Connected' &&
        (began === null || began < this.deadSeenAt || answeredAt - began > patience)
      ) {
        void hub.reconnectNow({ dead: false });
      }
      if (this.down && this.mayRecover()) this.recover(sentAt);
    } finally {
      this.probes--;
    }
  }

  private lineDead(at: number): void {
    this.down = true;
    this.foundDead = true;
    this.deadSeenAt = at;
  }

  /**
   * A line the checks found dead is caught up from the moment it answers; one where only a call went
   * unanswered (the line carries pings, but a call fails) at most every NO_ANSWER_RECOVERY_GAP_MS,
   * so that a call that keeps failing is left to its own backoff rather than sent again and again.
   */
  private mayRecover(): boolean {
    return this.foundDead || this.deps.clock.now() - this.recoveredAt >= NO_ANSWER_RECOVERY_GAP_MS;
  }

  private recover(sentBefore: number): void {
    const lost = this.foundDead;
    this.down = false;
    this.foundDead = false;
    this.recoveredAt = this.deps.clock.now();
    this.deps.recovered(lost ? sentBefore : -Infinity);
  }
}
