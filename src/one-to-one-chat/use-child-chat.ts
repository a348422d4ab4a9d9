import { useLiveQuery } from 'dexie-react-hooks';
import type { ConversationRow } from '../../worker/client/group-support.ts';
import type { ChatStateRow } from '../../worker/client/one-to-one-chat.ts';
import { useData } from '../data/index.ts';

/** The stored chat state and its conversation (undefined while loading). */
export function useChildChat():
  { state: ChatStateRow | null; conversation: ConversationRow | null } | undefined {
  const { db } = useData();
  return useLiveQuery(async () => {
    const state = (await db.chatState.get('current')) ?? null;
    const id = state?.conversationId ?? null;
    const conversation = id === null ? null : ((await db.conversations.get(id)) ?? null);
    return { state, conversation };
  }, [db]);
}
