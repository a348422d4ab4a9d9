import type { OneToOneChatApi } from '../client/one-to-one-chat.ts';
import type { PortalWorker } from '../portal-worker.ts';

/** The OneToOneChatApi half of the Comlink API object: every call waits for the started worker. */
export function oneToOneChatApi(ready: Promise<PortalWorker>): OneToOneChatApi {
  const c = async () => (await ready).oneToOne;
  return {
    resumeChat: async () => (await c()).resumeChat(),
    chatAccountStatus: async () => (await c()).chatAccountStatus(),
    startChat: async (text, device) => (await c()).startChat(text, device),
    preSubmit: async (id, text) => (await c()).preSubmit(id, text),
    leaveQueue: async (id) => (await c()).leaveQueue(id),
    endChat: async (id) => (await c()).endChat(id),
    closeChat: async () => (await c()).closeChat(),
    markActive: async (at) => (await c()).markActive(at),
  };
}
