import * as Comlink from 'comlink';
import { COMMAND_RETRY, TAB_HOLDS, type WorkerCommands } from './api.ts';
import { BUILD_ID } from './build-id.ts';
import { RefCounts } from './ref-counts.ts';
import { failure } from './result.ts';

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
 * or misses a heartbeat is replaced: the bridge starts a new one, greets it, opens again what this
 * tab holds open (TAB_HOLDS), and sends again the calls that were waiting for the old one when
 * they are safe to repeat (COMMAND_RETRY); the others answer 'worker_lost'. Writes in the outbox
 * need nothing from here: the new worker sends what the old one left in IndexedDB.
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
  /** What this tab opened and has not closed, by the open command and its arguments. */
  private readonly holds = new RefCounts<string>();
  private heartbeat: ReturnType<typeof setTimeout> | null = null;

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
          if (generation !== this.generation) return;
          this.greetedGeneration = generation;
          this.deps.onHello(answer);
          if (replay) this.reopen();
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
    if (generation !== this.generation) return;
    console.warn('The data worker stopped answering; starting it again');
    if (this.heartbeat !== null) clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.markLost();
    this.connect();
  }

  private beat(generation: number): void {
    this.heartbeat = setTimeout(() => {
      if (generation !== this.generation) return;
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
      const generation = this.generation;
      const { remote, lost } = this;
      await Promise.race([this.greeted, lost]);
      if (generation !== this.generation) continue;
      const answer = await Promise.race([
        remote[name]!(...args).then((value) => ({ value })),
        lost.then(() => null),
      ]);
      if (answer) {
        this.track(name, args);
        return answer.value;
      }
      if (COMMAND_RETRY[name as keyof typeof COMMAND_RETRY] !== 'repeat') return failure('worker_lost');
    }
  }

  /** Counts what the tab opened and closed, to open it again on a new worker. */
  private track(name: string, args: unknown[]): void {
    const opened = name in TAB_HOLDS;
    const open = Object.entries(TAB_HOLDS).find(([, close]) => close === name)?.[0];
    if (opened) this.holds.add(JSON.stringify([name, args]));
    else if (open) this.holds.remove(JSON.stringify([open, args]));
  }

  private reopen(): void {
    for (const key of this.holds.keys()) {
      const [name, args] = JSON.parse(key) as [string, unknown[]];
      for (let n = this.holds.count(key); n > 0; n--) {
        void this.remote[name]!(...args).catch((error: unknown) => console.error(name, error));
      }
    }
  }
}
