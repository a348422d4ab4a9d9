import { useEffect, useState } from 'react';
import { HUB_EVENTS } from '../../contract/hub.ts';
import { StaffApiError, useStaffApi } from '../api/staff-api.ts';
import { useHubEvent, useHubReconnected } from '../api/staff-hub.ts';
import type { QueueItem } from './types.ts';
import { useCoalescedLoader } from '../api/coalesced-loader.ts';

/** The counsellor's own conversations (GET /conversations), refetched when any of them changes. */
export function useMyConversations() {
  const api = useStaffApi();
  const [items, setItems] = useState<QueueItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCoalescedLoader(async () => {
    try {
      setItems((await api.get<{ value: QueueItem[] }>('/conversations')).value);
      setError(null);
    } catch (e) {
      setError(e instanceof StaffApiError ? e.message : null);
    }
  });
  useEffect(reload, [reload]);
  useHubEvent(HUB_EVENTS.conversationUpdated, reload);
  useHubReconnected(reload);
  return { items, error, reload };
}
