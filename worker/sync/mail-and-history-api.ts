import type { MailAndHistoryApi } from '../client/mail-and-history.ts';
import type { PortalWorker } from '../portal-worker.ts';

/** The MailAndHistoryApi half of the Comlink API object. */
export function mailAndHistoryApi(ready: Promise<PortalWorker>): MailAndHistoryApi {
  void ready;
  return {};
}
