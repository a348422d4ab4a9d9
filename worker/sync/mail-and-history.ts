import type { GroupDeps } from './group-deps.ts';

/** Mail threads and chat history in Dexie. */
export class MailAndHistorySync {
  constructor(readonly deps: GroupDeps) {}
}
