import { useLiveQuery } from 'dexie-react-hooks';
import type { PortalDb } from '../../worker/client/db.ts';
import type { ConversationRow } from '../../worker/client/group-support.ts';
import type { ChatStateRow } from '../../worker/client/one-to-one-chat.ts';
import { useDb } from '../data/index.ts';

export interface ChildChatRows {
  state: ChatStateRow | null;
  conversation: ConversationRow | null;
}

/** The stored chat state and its conversation, read once. */
export async function readChildChat(db: PortalDb): Promise<ChildChatRows> {
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
