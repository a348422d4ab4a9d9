import { useLiveQuery } from 'dexie-react-hooks';
import { MAIL_KIND } from '../../worker/client/mail-and-history.ts';
import { useData } from '../data/index.ts';

/** Every conversation in Dexie (mail, chats, group chats); lists filter them. */
export function useConversations() {
  const { db } = useData();
  return useLiveQuery(() => db.conversations.toArray(), [db]);
}

/** Mails written but not yet on the server (offline): shown so the child sees they are kept. */
export function usePendingMails() {
  const { db } = useData();
  return useLiveQuery(
    async () =>
      (await db.outbox.where('status').anyOf('queued', 'sending', 'failed').toArray())
        .filter((row) => row.kind === MAIL_KIND && !row.final)
        .map((row) => ({
          clientId: row.clientId,
          subject: (row.body as { subject?: string }).subject ?? '',
        })),
    [db],
  );
}
