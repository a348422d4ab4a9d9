import type { RuntimeConfig } from '../../contract/config.ts';
import type { ErrorCode, Result } from '../base/result.ts';
import type { LoginResult, OutboxWriteRequest, SignOutReason } from '../base/session.ts';
import type { PortalDb } from '../base/db.ts';
import type { Clock } from '../clock.ts';
import type { HttpClient } from '../http/http-client.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { SubscribeMode } from '../portal-worker-deps.ts';
import type { Uploader } from './upload.ts';

/**
 * What every sync module (meetings, chats, mail and history, account) gets from the worker core.
 * Injected, so tests run the modules inside the real core against the real server.
 */
export interface SyncContext {
  http: HttpClient;
  db: PortalDb;
  config: Pick<
    RuntimeConfig,
    'meetingsFeatureId' | 'applicationId' | 'propertyIds' | 'variant' | 'contactsFeatureId' | 'features'
  >;
  clock: Clock;
  /**
   * A repeating timer (worker/clock.ts `repeat`) of this session: the answered stop ends it, and
   * the core ends every one still running when the session ends.
   */
  repeat(ms: number, run: () => Promise<unknown>, options?: { now?: boolean }): () => void;
  subscribe(key: string, mode?: SubscribeMode): Promise<boolean>;
  unsubscribe(key: string): Promise<void>;
  enqueue(write: OutboxWriteRequest): Promise<string>;
  /** 'Försök igen': a refused write is sent again (false when there is no refused row by that id). */
  retryWrite(clientId: string): Promise<boolean>;
  /** 'Ta bort': an unsent write is dropped (false when it is being sent or was sent). */
  discardWrite(clientId: string): Promise<boolean>;
  /** Waits for an outbox row to be sent or to fail (at most `timeoutMs`); see Outbox.whenSettled. */
  whenSettled: Outbox['whenSettled'];
  upload: Uploader;
  /** The session, for the account's commands that sign in, renew or end it. */
  session: SessionControl;
  /** SPEC §7: the header's notification count, refreshed after notification writes. */
  refreshNotificationCount(): Promise<void>;
}

export interface SessionControl {
  login(username: string, password: string | null): Promise<LoginResult>;
  /** Keeps a device token the server issued outside a login (a registration's) for these credentials. */
  keepDeviceToken(username: string, password: string, token: string): Promise<void>;
  logout(reason: SignOutReason): Promise<void>;
  /** See PortalWorker.renewSession: a call after which the server ends every session of the account. */
  renew<C extends ErrorCode>(
    username: string,
    password: string,
    call: (token: string) => Promise<Result<void, C>>,
  ): Promise<Result<void, C | 'signed_out' | 'failed'>>;
  /**
   * Runs `call` with the hub stopped (in the worker that runs it), and starts the hub again unless
   * `ended` says the session is over.
   */
  withoutHub<R>(call: () => Promise<R>, ended: (result: R) => boolean): Promise<R>;
}

export const meetingsBase = (ctx: SyncContext) => `/features/meetings/${ctx.config.meetingsFeatureId}`;
export const conversationsBase = (ctx: SyncContext) => `/features/conversations/${ctx.config.applicationId}`;

/** The id a hub event is about: events carry `{ id }`, `{ meetingId }` or `{ conversationId }`. */
export function idOf(data: unknown, ...fields: string[]): number | null {
  if (typeof data !== 'object' || data === null) return null;
  for (const field of fields) {
    const value = (data as Record<string, unknown>)[field];
    if (typeof value === 'number' && Number.isInteger(value)) return value;
  }
  return null;
}
