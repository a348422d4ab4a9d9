import { useEffect, useState } from 'react';
import { HUB_EVENTS } from '../../contract/hub.ts';
import { StaffApiError, useStaffApi } from '../api/staff-api.ts';
import { useHubEvent, useHubReconnected } from '../api/staff-hub.ts';
import { COUNSELLOR_TEXTS as T } from './texts.ts';
import type { QueueItem } from './types.ts';
import { useCoalescedLoader } from '../api/coalesced-loader.ts';

/**
 * The queue (GET /queue), kept live: the server announces every new, left, accepted or answered
 * conversation to counsellors as Conversation.Updated (server/conversations/counsellor-routes.ts), and each queued
 * item is subscribed to (see QueueEntry) for the cancellations the server makes on its own.
 */
export function useQueue() {
  const api = useStaffApi();
  const [items, setItems] = useState<QueueItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCoalescedLoader(async () => {
    try {
      const res = await api.get<{ value: QueueItem[] }>('/queue');
      setItems(res.value);
      setError(null);
    } catch (e) {
      setError(e instanceof StaffApiError ? e.message : T.queueFailed);
    }
  });
  useEffect(reload, [reload]);
  useHubEvent(HUB_EVENTS.conversationUpdated, reload);
  useHubReconnected(reload);
  return { items, error, reload };
}
