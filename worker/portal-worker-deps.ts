import type { StateStore } from 'oidc-client-ts';
import type { RuntimeConfig } from '../contract/config.ts';
import type { WorkerBroadcast } from './base/session.ts';
import type { PortalDb } from './base/db.ts';
import type { Clock, WithLock } from './clock.ts';
import type { HubDeps } from './hub/hub-client.ts';
import type { Uploader } from './sync/upload.ts';

/** Messages between the data workers of one browser (dedicated-worker fallback: one per tab). */
export type PeerMessage =
  | { type: 'signed-in' }
  | { type: 'signed-out' }
  | { type: 'outbox' }
  | { type: 'subscribe'; entityKey: string; mode: SubscribeMode }
  | { type: 'unsubscribe'; entityKey: string }
  /** A new leader took the hub: the others send their tab's subscriptions again. */
  | { type: 'leader' }
  /**
   * Whether a tab of the worker `worker` shows a live chat or group chat now (told again every
   * PEER_ATTENTION_REFRESH_MS while it does): the leader checks the line at the live pace for it.
   */
  | { type: 'attention'; worker: string; on: boolean }
  /** A tab saw a sign the line changed: the leader checks the connection at once. */
  | { type: 'check' };

export type SubscribeMode = 'default' | 'group';

export type HubEventHandler = (data: unknown, entityKey: string) => void | Promise<void>;

export interface PortalWorkerDeps {
  config: RuntimeConfig;
  origin: string;
  db: PortalDb;
  userStore: StateStore;
  /** Where the device token is kept: apart from the tokens, since it outlives every sign-out. */
  deviceStore?: StateStore;
  /**
   * Disk mode's sign-out (worker/local-data.ts): shreds the at-rest key and deletes the databases.
   * Answers false where there was no key to shred; the tables are then cleared, as they are without
   * it (shared-device mode, in memory).
   */
  eraseLocalData?: () => Promise<boolean>;
  /** A sign-in begins: the at-rest key, shredded by the last sign-out, may be made again. */
  allowLocalData?: () => void;
  fetch: typeof fetch;
  clock: Clock;
  withLock: WithLock;
  broadcast(message: WorkerBroadcast): void;
  notifyPeers?(message: PeerMessage): void;
  hub?: Pick<HubDeps, 'transport' | 'logLevel'>;
  random?: () => number;
  /** Tests shorten the HTTP timeout (REQUEST_TIMEOUT_MS) to see a hung request given up. */
  requestTimeoutMs?: number;
  /** Homework uploads with progress; XMLHttpRequest in browsers, fetch where it is missing. */
  upload?: Uploader;
}
