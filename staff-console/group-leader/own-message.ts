import type { ConversationMessageWire } from '../../contract/conversations.ts';

/**
 * Whether the signed-in leader wrote a group-chat message: by the author's account id (the token's
 * `sub`), since two leaders of a group may well share a display name.
 */
export function isOwnMessage(
  message: Pick<ConversationMessageWire, 'authorKind' | 'agentId'>,
  accountId: number,
) {
  return message.authorKind === 'agent' && message.agentId === accountId;
}
