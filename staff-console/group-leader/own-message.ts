import type { ConversationMessageWire } from '../../contract/conversations.ts';
import { isStaffAuthor } from '../../contract/author-kinds.ts';

/**
 * Whether the signed-in leader wrote a group-chat message: by the author's account id (the token's
 * `sub`), since two leaders of a group may well share a display name.
 */
export function isOwnMessage(
  message: Pick<ConversationMessageWire, 'authorKind' | 'agentId'>,
  accountId: number,
) {
  return isStaffAuthor(message.authorKind) && message.agentId === accountId;
}
