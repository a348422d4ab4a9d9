import type { SystemNotice } from '../../contract/system-notices.ts';
import type { ErrorCode, Result } from './result.ts';

/**
 * The session's types and commands and the worker's broadcasts: what the worker core and the UI both
 * name. The UI imports them through `api.ts`.
 */

export type AuthStatus = 'unknown' | 'authenticated' | 'anonymous';

/** Why the user was signed out, when it was not their own choice (SPEC §4, §8). */
export type SignOutReason = 'user' | 'session_expired' | 'access_lost';

/** What a login answers when it fails: each has its Swedish text in src/login/texts.ts. */
export const LOGIN_ERRORS = [
  'invalid_username_or_password',
  'too_many_attempts',
  'offline',
  'failed',
] as const satisfies readonly ErrorCode[];
export type LoginError = (typeof LOGIN_ERRORS)[number];
export type LoginResult = Result<void, LoginError>;

export type HubState = 'Disconnected' | 'Connecting' | 'Connected' | 'Disconnecting' | 'Reconnecting';

/** The child's answer to 'Vill du få en notis när det är din tur?' (asked once per browser). */
export type NoticeAnswer = 'yes' | 'no';

/** An outgoing write waiting in the outbox; `clientId` is sent as the `Idempotency-Key`. */
export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface OutboxWriteRequest {
  /** What the write is, e.g. 'conversationmessage'; decides the API call the worker makes. */
  kind: string;
  /** Relative to the API base, e.g. '/conversationmessage'. */
  path: string;
  body: unknown;
  /** Groups writes that must be sent in order, e.g. a conversation id. */
  orderKey?: string;
  /** The Idempotency-Key to use, when the caller already shows the write under it (a chat row). */
  clientId?: string;
}

export interface ClientErrorReport {
  message: string;
  stack?: string | null;
  url?: string | null;
  status?: number;
}

/** The commands of the worker core itself: the session, the outbox, hub subscriptions. */
export interface SessionApi {
  /** Password login; in group style `password` is null and `username` is the personal code. */
  login(username: string, password: string | null): Promise<LoginResult>;
  /** Ends everything: revoke tokens (local logout if that fails), stop the hub, clear data. */
  logout(reason?: SignOutReason): Promise<Result>;
  /**
   * 'Lämna sidan': the session ends on this device at once, without waiting for the server (the
   * page sends the login's exit handle as it goes; the worker's own revocation is a second chance).
   */
  quickExit(): Promise<Result>;
  /** The quick exit's handle of the login signed in (contract/quick-exit.ts), null when none. */
  exitHandle(): Promise<Result<string | null>>;
  /** SPEC §4: on becoming visible again, check authentication and (re)start the hub. */
  becameVisible(): Promise<Result>;
  /**
   * The tab saw the browser go online or offline. A SharedWorker is not always told (and browser
   * emulation never reaches it), so every tab passes its own `online`/`offline` events on.
   */
  networkChanged(online: boolean): Promise<Result>;
  /**
   * A sign the line may have changed that the browser gives no event for in a worker (the tab was
   * focused or shown): the real-time connection is checked at once, and restarted if it is dead.
   */
  checkConnection(): Promise<Result>;
  /** Header logo: clear the cached thread list. */
  clearThreadCache(): Promise<Result>;
  /** My-pages button: clear cached my-pages data. */
  clearMyPagesCache(): Promise<Result>;
  /** Client error log of SPEC §8 (skip rules, 5-minute de-duplication, 1 s debounce). */
  reportError(report: ClientErrorReport): Promise<Result>;
  /** Puts a write in the outbox; resolves with its client id at once (it is sent in the background). */
  enqueue(write: OutboxWriteRequest): Promise<Result<string>>;
  /** Retries failed writes now (the user tapped 'try again', or the network came back). */
  flushOutbox(): Promise<Result>;
  /** SubscribeToEntity with the retries of SPEC §4 ('group' uses 5 s x 30). */
  subscribe(entityKey: string, mode?: 'default' | 'group'): Promise<Result<boolean>>;
  unsubscribe(entityKey: string): Promise<Result>;
}

/**
 * Messages on the `portal-events` BroadcastChannel: what the worker tells every tab, and the few a
 * tab tells the others and the worker (a quick exit, a shred done).
 */
export type WorkerBroadcast =
  | { type: 'signed-out'; reason: SignOutReason }
  /**
   * The quick exit's handle of the login now signed in (contract/quick-exit.ts), null when none: a
   * revoke-only value, so a tab may hold it and send it as it leaves.
   */
  | { type: 'exit-handle'; handle: string | null }
  /** A SharedWorker asks the tabs to shred the at-rest key (it cannot itself: worker/key-file/). */
  | { type: 'shred-key'; id: string }
  /** A tab's answer: its shredder has (`ok`) or has not shredded the key. */
  | { type: 'key-shredded'; id: string; ok: boolean }
  /** A tab left by the quick exit: every other tab of the app leaves for the same page. */
  | { type: 'quick-exit' }
  /** `buildId` is the build of the worker that asks: only tabs of that (old) build reload. */
  | { type: 'reload'; reason: 'new-build'; buildId?: string }
  | { type: 'hub-error'; message: string }
  /** For the tab `tabId` only: show `notice` as a system notification (when permitted). */
  | { type: 'system-notice'; tabId: string; notice: SystemNotice };

export const BROADCAST_CHANNEL = 'portal-events';
