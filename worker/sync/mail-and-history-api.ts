import type { MailAndHistoryApi } from '../client/mail-and-history.ts';
import type { PortalWorker } from '../portal-worker.ts';

/** The MailAndHistoryApi half of the Comlink API object; threads share the group chat's message sync. */
export function mailAndHistoryApi(ready: Promise<PortalWorker>): MailAndHistoryApi {
  return {
    loadConversations: async (selection) => (await ready).mailAndHistory.loadConversations(selection),
    openConversation: async (id) => {
      const worker = await ready;
      return worker.mailAndHistory.openConversation(id, worker.chat);
    },
    closeConversation: async (id) => (await ready).mailAndHistory.closeConversation(id),
    sendMail: async (subject, text, device) => {
      const worker = await ready;
      return worker.mailAndHistory.sendMail(subject, text, device, worker.chat);
    },
    replyToConversation: async (id, content) => (await ready).chat.sendChatMessage(id, content),
    setFavourite: async (id, favourite) => (await ready).mailAndHistory.setFavourite(id, favourite),
    deleteConversation: async (id) => (await ready).mailAndHistory.deleteConversation(id),
  };
}
