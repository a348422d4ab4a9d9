import type { AccountApi } from '../client/account.ts';
import type { PortalWorker } from '../portal-worker.ts';

/** The AccountApi half of the Comlink API object. */
export function accountApi(ready: Promise<PortalWorker>): AccountApi {
  void ready;
  return {};
}
