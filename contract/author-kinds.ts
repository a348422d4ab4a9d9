import type { Conversation, ConversationMessageWire, MessageAuthorKind } from './conversations.ts';

/**
 * What the code asks of a message's author kind, answered once per kind. Code outside contract/
 * reads these answers (or the predicates below), never the kind's name: a new kind is a compile error
 * here until its entry answers them, and then every caller handles it.
 */
export interface AuthorKindInfo {
  /**
   * Whose side of the conversation the message is on: the child or a group participant (contact), a
   * staff member, a counsellor or a group leader (staff), or nobody's, a notice from the queue's bot or
   * the system (notice). It picks the bubble and the label in every message list.
   */
  party: AuthorParty;
  /** The wire field that carries the stored author name; null: the message goes out without one. */
  nameField: Extract<keyof ConversationMessageWire, 'contactName' | 'agentName'> | null;
  /**
   * The conversation date a new message of the kind sets (SPEC §3); null: none. A conversation whose
   * lastAgentMessageDate is set is active (contract/conversation-state.ts), so the first message that
   * sets it is the chat's start.
   */
  stamps: Extract<keyof Conversation, 'lastAgentMessageDate' | 'lastContactMessageDate'> | null;
}

export type AuthorParty = 'contact' | 'staff' | 'notice';

export const AUTHOR_KINDS: Readonly<Record<MessageAuthorKind, Readonly<AuthorKindInfo>>> = {
  contact: { party: 'contact', nameField: 'contactName', stamps: 'lastContactMessageDate' },
  agent: { party: 'staff', nameField: 'agentName', stamps: 'lastAgentMessageDate' },
  bot: { party: 'notice', nameField: null, stamps: null },
  system: { party: 'notice', nameField: null, stamps: null },
};

export const authorParty = (kind: MessageAuthorKind): AuthorParty => AUTHOR_KINDS[kind].party;

/** Written by a staff member: a counsellor's answer or a group leader's message. */
export const isStaffAuthor = (kind: MessageAuthorKind): boolean => AUTHOR_KINDS[kind].party === 'staff';

/**
 * Written by the child or a group participant: the only kind a device writes through its outbox, so
 * the only one that can be the app user's own message.
 */
export const isContactAuthor = (kind: MessageAuthorKind): boolean => AUTHOR_KINDS[kind].party === 'contact';

/** Its first message makes the chat live (SPEC §4): it sets the conversation's lastAgentMessageDate. */
export const startsChat = (kind: MessageAuthorKind): boolean =>
  AUTHOR_KINDS[kind].stamps === 'lastAgentMessageDate';

/** The author's stored name, shown with the message; null for a kind whose messages carry none. */
export function authorNameOf(m: Pick<ConversationMessageWire, 'authorKind' | 'contactName' | 'agentName'>) {
  const field = AUTHOR_KINDS[m.authorKind].nameField;
  return field === null ? null : m[field];
}

type AuthorNameFields = Record<NonNullable<AuthorKindInfo['nameField']>, string | null>;

/** The wire's name fields for a stored message: its author name in the one field its kind names. */
export function authorNameFields(kind: MessageAuthorKind, name: string | null): AuthorNameFields {
  const fields: AuthorNameFields = { contactName: null, agentName: null };
  const field = AUTHOR_KINDS[kind].nameField;
  if (field !== null) fields[field] = name;
  return fields;
}
