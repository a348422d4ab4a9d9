import * as Comlink from 'comlink';
import { COMMAND_RETRY, type WorkerCommands } from './api.ts';
import { BUILD_ID } from '../base/build-id.ts';
import { failure } from '../base/result.ts';
import { StandingRegistrations } from './standing-registrations.ts';

/** How often a tab asks the worker whether it still answers, once it answered the first time. */
export const HEARTBEAT_MS = 5_000;
/** A heartbeat without an answer this long means the worker is gone (closed, crashed). */
export const HEARTBEAT_TIMEOUT_MS = 5_000;
/** The first answer may take longer: a new worker loads its script and opens its databases. */
export const HANDSHAKE_TIMEOUT_MS = 15_000;

/** A started data worker as the bridge needs it: where to talk to it, and how to let it go. */
export interface StartedWorker {
  endpoint: Comlink.Endpoint;
  close(): void;
}

export interface WorkerBridgeDeps {
  tabId: string;
  /** Resolves once the tab holds its own lock (the worker may then watch it). */
  locked: Promise<void>;
  /** Starts (or joins) the data worker; `onError` is its `error` event. */
  start(onError: () => void): StartedWorker;
  /** The worker's answer to the build handshake (a mismatch reloads the page). */
  onHello(answer: { buildId: string; ok: boolean }): void;
}

type AnyCommand = (...args: unknown[]) => Promise<unknown>;

/**
 * The tab's end of the Comlink connection, made to outlive its worker. A worker that fires `error`
 * or misses a heartbeat is replaced: the bridge starts a new one, greets it, registers again
 * everything this tab registered and has not taken back (the standing commands of COMMAND_RETRY:
 * open chats and threads, entity subscriptions, watched meetings, the tab's visibility), before any
 * other call, and sends again the calls that were waiting for the old one when they are safe to
 * repeat; the others answer 'worker_lost'. Writes in the outbox need nothing from here: the new
 * worker sends what the old one left in IndexedDB as soon as it starts.
 */
export class WorkerBridge {
  readonly api: WorkerCommands;
  private worker!: StartedWorker;
  private remote!: Comlink.Remote<Record<string, AnyCommand>>;
  private generation = 0;
  /** The last generation that answered the handshake. */
  private greetedGeneration = 0;
  /** Resolves when the current worker is given up. */
  private lost!: Promise<void>;
  private markLost!: () => void;
  /** Resolves when the current worker answered the handshake (never, for one given up). */
  private greeted!: Promise<void>;
  /** What this tab registered and has not taken back, to register again on a new worker. */
  private readonly registrations = new StandingRegistrations();
  private heartbeat: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(private readonly deps: WorkerBridgeDeps) {
    this.connect();
    this.api = new Proxy({} as WorkerCommands, {
      // 'then' stays undefined so that the object is not mistaken for a promise.
      get: (_, name) =>
        typeof name === 'string' && name !== 'then'
          ? (...args: unknown[]) => this.call(name, args)
          : undefined,
    });
  }

  private connect(): void {
    const generation = ++this.generation;
    this.worker?.close();
    // A worker that fails before it ever answered (its script did not load) is left to the
    // handshake timeout, so that a failing start is not repeated in a tight loop.
    this.worker = this.deps.start(() => {
      if (this.greetedGeneration === generation) this.replace(generation);
    });
    const remote = Comlink.wrap<Record<string, AnyCommand>>(this.worker.endpoint);
    this.remote = remote;
    this.lost = new Promise((resolve) => (this.markLost = resolve));
    const replay = generation > 1;
    this.greeted = new Promise((greeted) => {
      void this.deps.locked.then(async () => {
        const timeout = setTimeout(() => this.replace(generation), HANDSHAKE_TIMEOUT_MS);
        try {
          const answer = (await remote.hello!(BUILD_ID, this.deps.tabId)) as {
            buildId: string;
            ok: boolean;
          };
          clearTimeout(timeout);
          if (generation !== this.generation || this.closed) return;
          this.greetedGeneration = generation;
          this.deps.onHello(answer);
          if (replay) this.replay();
          this.beat(generation);
          greeted();
        } catch (error) {
          // The timeout above replaces the worker (not at once: that could repeat in a tight loop).
          console.error('Data worker handshake failed', error);
        }
      });
    });
  }

  /** Gives the worker of `generation` up and starts another, once per generation. */
  private replace(generation: number): void {
    if (generation !== this.generation || this.closed) return;
    console.warn('The data worker stopped answering; starting it again');
    if (this.heartbeat !== null) clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.markLost();
    this.connect();
  }

  private beat(generation: number): void {
    this.heartbeat = setTimeout(() => {
      if (generation !== this.generation || this.closed) return;
      let answered = false;
      const timeout = setTimeout(() => {
        if (!answered) this.replace(generation);
      }, HEARTBEAT_TIMEOUT_MS);
      void this.remote.hello!(BUILD_ID, this.deps.tabId).then(() => {
        answered = true;
        clearTimeout(timeout);
        if (generation === this.generation) this.beat(generation);
      });
    }, HEARTBEAT_MS);
  }

  private async call(name: string, args: unknown[]): Promise<unknown> {
    for (;;) {
      if (this.closed) return failure('worker_lost');
      const generation = this.generation;
      const { remote, lost } = this;
      await Promise.race([this.greeted, lost]);
      if (generation !== this.generation) continue;
      const answer = await Promise.race([
        remote[name]!(...args).then((value) => ({ value })),
        lost.then(() => null),
      ]);
      if (answer) {
        this.registrations.record(name, args);
        return answer.value;
      }
      if (COMMAND_RETRY[name as keyof typeof COMMAND_RETRY] === 'once') return failure('worker_lost');
    }
  }

  /** Lets the worker go for good: no heartbeat, no new worker; waiting calls answer 'worker_lost'. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat !== null) clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.markLost();
    this.worker.close();
  }

  /**
   * Registers again on a new worker what the tab holds. Sent before the handshake lets any waiting
   * call through, so a close that waited for the new worker comes after the open it closes.
   */
  private replay(): void {
    for (const { name, args } of this.registrations.replay()) {
      void this.remote[name]!(...args).catch((error: unknown) => console.error(name, error));
    }
  }
}
