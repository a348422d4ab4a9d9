import { useLiveQuery } from 'dexie-react-hooks';
import type { ChatMessageRow } from '../../worker/client/group-support.ts';
import type { PortalDb } from '../../worker/client/db.ts';
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

const chatRange = (db: PortalDb, conversationId: number) =>
  db.chatMessages
    .where('[conversation+loggedDate]')
    .between([conversationId, ''], [conversationId, '\uffff']);

export function useChatMessages(conversationId: number | null) {
  const db = useDb();
  return useLiveQuery(
    async () => (conversationId === null ? [] : chatRange(db, conversationId).toArray()),
    [db, conversationId],
  );
}

/** How many of a chat's newest rows are read first, before the whole chat (a screen and more). */
export const CHAT_TAIL_ROWS = 60;

/** Whose rows a read of a chat's newest rows holds, and the rows (oldest first). */
export interface ChatTail {
  conversationId: number | null;
  rows: ChatMessageRow[];
}

/** A chat's newest CHAT_TAIL_ROWS rows, oldest first. */
export const readChatTail = async (db: PortalDb, conversationId: number) =>
  (await chatRange(db, conversationId).reverse().limit(CHAT_TAIL_ROWS).toArray()).reverse();

/** A chat's rows as a list reads them: every row once `complete`, its newest rows before that. */
export interface ChatRows {
  rows: ChatMessageRow[] | undefined;
  complete: boolean;
}

/**
 * A chat's rows for a list that opens at its newest message: the newest CHAT_TAIL_ROWS at once (an
 * index read of a few milliseconds), then every row (`complete`). A chat of thousands of messages so
 * shows within a frame or two of its window opening, offline from the cache too. What counts
 * messages (unseen ones, the chat's start) waits for `complete`.
 */
export function useChatRows(
  conversationId: number | null,
  /**
   * Where the caller reads the newest rows itself, in a live query of its own along with what else
   * it needs (the child's chat with its state): those, undefined while loading. This hook then
   * does not read them a second time on every new message.
   */
  caller?: { tail: ChatTail | undefined },
): ChatRows {
  const db = useDb();
  const readsTail = caller === undefined;
  const ownTail = useLiveQuery(
    async (): Promise<ChatTail | undefined> =>
      readsTail
        ? { conversationId, rows: conversationId === null ? [] : await readChatTail(db, conversationId) }
        : undefined,
    [db, conversationId, readsTail],
  );
  // Each read says whose rows it holds: when the conversation changes, a live query answers with the
  // last conversation's rows until its new read is done, and those must not pass for this one's (a
  // chat's "complete" empty list before its rows were read would count every message as new).
  const read = readsTail ? ownTail : caller.tail;
  const tail = read?.conversationId === conversationId ? read : undefined;
  // Read after the tail, so the tail is never held up behind the whole chat.
  const tailRead = tail !== undefined;
  const all = useLiveQuery(
    async () =>
      !tailRead
        ? undefined
        : {
            conversationId,
            rows: conversationId === null ? [] : await chatRange(db, conversationId).toArray(),
          },
    [db, conversationId, tailRead],
  );
  if (all?.conversationId === conversationId) return { rows: all.rows, complete: true };
  if (!tailRead) return { rows: undefined, complete: false };
  return { rows: tail.rows, complete: tail.rows.length < CHAT_TAIL_ROWS };
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
