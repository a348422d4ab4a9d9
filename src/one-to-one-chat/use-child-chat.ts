import { useLiveQuery } from 'dexie-react-hooks';
import type { PortalDb } from '../../worker/client/db.ts';
import type { ConversationRow } from '../../worker/client/group-support.ts';
import type { ChatStateRow } from '../../worker/client/one-to-one-chat.ts';
import { useDb } from '../data/index.ts';
import { readChatTail, type ChatTail } from '../data/meeting-and-chat-hooks.ts';

export interface ChildChatRows {
  state: ChatStateRow | null;
  conversation: ConversationRow | null;
}

async function readChildChat(db: PortalDb): Promise<ChildChatRows> {
  const state = (await db.chatState.get('current')) ?? null;
  const id = state?.conversationId ?? null;
  const conversation = id === null ? null : ((await db.conversations.get(id)) ?? null);
  return { state, conversation };
}

/** The stored chat state and its conversation (undefined while loading). */
export function useChildChat(): ChildChatRows | undefined {
  const db = useDb();
  return useLiveQuery(() => readChildChat(db), [db]);
}

/**
 * The chat state, its conversation and the chat's newest rows, read in one go (undefined while
 * loading): the chat window's first screen in a single read of the cache rather than a read of the
 * state and then one of its rows.
 */
export function useChildChatWithTail(): (ChildChatRows & { tail: ChatTail }) | undefined {
  const db = useDb();
  return useLiveQuery(async () => {
    const chat = await readChildChat(db);
    const conversationId = chat.state ? (chat.conversation?.id ?? null) : null;
    const rows = conversationId === null ? [] : await readChatTail(db, conversationId);
    return { ...chat, tail: { conversationId, rows } };
  }, [db]);
}
