import type { OneToOneChatApi } from '../client/one-to-one-chat.ts';
import type { PortalWorker } from '../portal-worker.ts';

/** The OneToOneChatApi half of the Comlink API object. */
export function oneToOneChatApi(ready: Promise<PortalWorker>): OneToOneChatApi {
  return {
    resumeChat: async () => (await ready).oneToOne.resumeChat(),
  };
}
