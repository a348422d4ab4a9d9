import { useEffect, useState } from 'react';
import { PEER_EVENTS, type PeerModerationItem, type PeerPostWire } from '../../contract/peers.ts';
import { StaffApiError, useStaffApi } from '../api/staff-api.ts';
import { useCoalescedLoader } from '../api/coalesced-loader.ts';
import { useHubEvent, useHubReconnected } from '../api/staff-hub.ts';
import { MODERATION_TEXTS as T } from './texts.ts';

/** A staff GET kept live by a hub event (and after a reconnect), reloads coalesced. */
function useLiveList<T>(path: string, eventName: string) {
  const api = useStaffApi();
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCoalescedLoader(async () => {
    try {
      setItems((await api.get<{ value: T[] }>(path)).value);
      setError(null);
    } catch (e) {
      setError(e instanceof StaffApiError ? e.message : T.failed);
    }
  });
  useEffect(reload, [reload]);
  useHubEvent(eventName, reload);
  useHubReconnected(reload);
  return { items, error, reload };
}

/** The moderation queue: every counsellor's account hears `PeerModeration.Changed`. */
export const useModerationQueue = () =>
  useLiveList<PeerModerationItem>('/peers/queue', PEER_EVENTS.moderationChanged);

/** The published posts, to answer as staff (a post approved by anyone joins the list). */
export const usePublishedPosts = () =>
  useLiveList<PeerPostWire>('/peers/posts', PEER_EVENTS.moderationChanged);
