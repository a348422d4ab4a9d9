import type { LoadResult } from '../client/group-support.ts';
import type { GroupDeps } from './group-deps.ts';

/** SPEC §2 Chat window and §4 Conversation for the child's one-to-one chat. */
export class OneToOneChatSync {
  constructor(readonly deps: GroupDeps) {}

  async resumeChat(): Promise<LoadResult> {
    return 'ok';
  }

  reset(): void {}
}
