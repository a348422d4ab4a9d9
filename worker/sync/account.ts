import type { GroupDeps } from './group-deps.ts';

/** Account calls and the notification and contact-message lists in Dexie. */
export class AccountSync {
  constructor(readonly deps: GroupDeps) {}
}
