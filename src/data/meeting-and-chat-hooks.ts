import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from './index.ts';

/** Live reads of the group-support tables; they render from the Dexie cache, also offline. */
export function useMeetings() {
  const db = useDb();
  return useLiveQuery(() => db.meetings.toArray(), [db]);
}

export function useMeeting(meetingId: number) {
  const db = useDb();
  return useLiveQuery(async () => (await db.meetings.get(meetingId)) ?? null, [db, meetingId]);
}

export function useAppendices(meetingId: number) {
  const db = useDb();
  return useLiveQuery(
    async () =>
      (await db.appendices.where('meetingId').equals(meetingId).toArray())
        .filter((a) => a.isActive)
        .sort((a, b) => a.orderIndex - b.orderIndex),
    [db, meetingId],
  );
}

export function useMeetingMessages(meetingId: number) {
  const db = useDb();
  return useLiveQuery(
    () => db.meetingMessages.where('meetingId').equals(meetingId).toArray(),
    [db, meetingId],
  );
}

export function useUploads(meetingId: number) {
  const db = useDb();
  return useLiveQuery(() => db.uploads.where('meetingId').equals(meetingId).toArray(), [db, meetingId]);
}

export function useConversation(conversationId: number | null) {
  const db = useDb();
  return useLiveQuery(
    async () => (conversationId === null ? null : ((await db.conversations.get(conversationId)) ?? null)),
    [db, conversationId],
  );
}

export function useConnections(conversationId: number | null) {
  const db = useDb();
  return useLiveQuery(
    async () =>
      conversationId === null ? [] : db.connections.where('conversation').equals(conversationId).toArray(),
    [db, conversationId],
  );
}

export function useTyping(conversationId: number | null) {
  const db = useDb();
  return useLiveQuery(
    async () =>
      conversationId === null ? [] : db.typing.where('conversation').equals(conversationId).toArray(),
    [db, conversationId],
  );
}

/** The state of this tab's worker's hub connection (undefined until the worker has written it). */
export function useHubState() {
  const db = useDb();
  return useLiveQuery(() => db.runtime.get('current'), [db])?.hubState;
}
