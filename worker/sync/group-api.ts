import type { GroupSupportApi } from '../client/group-support.ts';
import type { PortalWorker } from '../portal-worker.ts';

/** The GroupSupportApi half of the Comlink API object: every call waits for the started worker. */
export function groupSupportApi(ready: Promise<PortalWorker>): GroupSupportApi {
  const m = async () => (await ready).meetings;
  const c = async () => (await ready).chat;
  return {
    loadMeetings: async () => (await m()).loadMeetings(),
    loadMeeting: async (id) => (await m()).loadMeeting(id),
    openGroupChat: async (id) => (await c()).openGroupChat(id),
    closeGroupChat: async (id) => (await c()).closeGroupChat(id),
    sendChatMessage: async (id, content) => (await c()).sendChatMessage(id, content),
    sendTyping: async (id) => (await c()).sendTyping(id),
    sendPrivateMessage: async (id, text) => (await m()).sendPrivateMessage(id, text),
    uploadHomework: async (id, file, name) => (await m()).uploadHomework(id, file, name),
    deleteMeetingMessage: async (id, messageId) => (await m()).deleteMeetingMessage(id, messageId),
    downloadAppendix: async (id, appendixId) => (await m()).downloadAppendix(id, appendixId),
    downloadMeetingMessageFile: async (id, messageId, fileName) =>
      (await m()).downloadMeetingMessageFile(id, messageId, fileName),
    watchMeeting: async (id, watching) => (await m()).watchMeeting(id, watching),
  };
}
