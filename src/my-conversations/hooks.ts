import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../data/index.ts';
import { pendingMails } from '../conversation-ui/conversation-lists.ts';

/** Every conversation in Dexie (mail, chats, group chats); lists filter them. */
export function useConversations() {
  const db = useDb();
  return useLiveQuery(() => db.conversations.toArray(), [db]);
}

/** Mails written but not yet on the server: shown so the child sees they are kept. */
export function usePendingMails() {
  const db = useDb();
  return useLiveQuery(
    async () => pendingMails(await db.outbox.where('status').anyOf('queued', 'sending', 'failed').toArray()),
    [db],
  );
}
