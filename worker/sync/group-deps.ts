import type { RuntimeConfig } from '../../contract/config.ts';
import type { OutboxWriteRequest } from '../client/api.ts';
import type { PortalDb } from '../client/db.ts';
import type { Clock } from '../clock.ts';
import type { HttpClient } from '../http/http-client.ts';
import type { HubEventHandler, SubscribeMode } from '../portal-worker.ts';
import type { Uploader } from './upload.ts';

/** What the group-support syncs need from the worker core (injected, so tests use the real core). */
export interface GroupDeps {
  http: HttpClient;
  db: PortalDb;
  config: Pick<
    RuntimeConfig,
    'meetingsFeatureId' | 'applicationId' | 'propertyIds' | 'variant' | 'contactsFeatureId' | 'features'
  >;
  clock: Clock;
  on(eventName: string, handler: HubEventHandler): void;
  subscribe(key: string, mode?: SubscribeMode): Promise<boolean>;
  unsubscribe(key: string): Promise<void>;
  enqueue(write: OutboxWriteRequest): Promise<string>;
  upload: Uploader;
}

export const meetingsBase = (deps: GroupDeps) => `/features/meetings/${deps.config.meetingsFeatureId}`;
export const conversationsBase = (deps: GroupDeps) => `/features/conversations/${deps.config.applicationId}`;

/** The id a hub event is about: events carry `{ id }`, `{ meetingId }` or `{ conversationId }`. */
export function idOf(data: unknown, ...fields: string[]): number | null {
  if (typeof data !== 'object' || data === null) return null;
  for (const field of fields) {
    const value = (data as Record<string, unknown>)[field];
    if (typeof value === 'number' && Number.isInteger(value)) return value;
  }
  return null;
}
