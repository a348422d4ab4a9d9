import { describe, expect, it } from 'vitest';
import { MESSAGE_AUTHOR_KINDS, type MessageAuthorKind } from '../../contract/conversations.ts';
import {
  AUTHOR_KINDS,
  authorNameFields,
  authorNameOf,
  authorParty,
  isContactAuthor,
  isStaffAuthor,
  startsChat,
  type AuthorKindInfo,
} from '../../contract/author-kinds.ts';

const expected: Record<MessageAuthorKind, AuthorKindInfo> = {
  contact: { party: 'contact', nameField: 'contactName', stamps: 'lastContactMessageDate' },
  agent: { party: 'staff', nameField: 'agentName', stamps: 'lastAgentMessageDate' },
  bot: { party: 'notice', nameField: null, stamps: null },
  system: { party: 'notice', nameField: null, stamps: null },
};

const message = (authorKind: MessageAuthorKind) => ({
  authorKind,
  contactName: 'Anna',
  agentName: 'Lisa',
});

describe('author kinds', () => {
  it('has one entry for every kind and nothing else', () => {
    expect(Object.keys(AUTHOR_KINDS).sort()).toEqual([...MESSAGE_AUTHOR_KINDS].sort());
  });

  it.each(MESSAGE_AUTHOR_KINDS)("answers for '%s' as the code asks", (kind) => {
    expect(AUTHOR_KINDS[kind]).toEqual(expected[kind]);
  });

  it("tells the child's or participant's messages from staff's and from notices", () => {
    const answers = MESSAGE_AUTHOR_KINDS.map((k) => [
      k,
      authorParty(k),
      isContactAuthor(k),
      isStaffAuthor(k),
    ]);
    expect(answers).toEqual([
      ['contact', 'contact', true, false],
      ['agent', 'staff', false, true],
      ['bot', 'notice', false, false],
      ['system', 'notice', false, false],
    ]);
  });

  it("starts the chat with staff's first message only, the one that sets lastAgentMessageDate", () => {
    expect(MESSAGE_AUTHOR_KINDS.filter(startsChat)).toEqual(['agent']);
  });

  it("shows the contact's name, the staff member's name, and no name on a notice", () => {
    expect(MESSAGE_AUTHOR_KINDS.map((k) => authorNameOf(message(k)))).toEqual(['Anna', 'Lisa', null, null]);
  });

  it('puts a stored author name in the one wire field its kind names', () => {
    expect(authorNameFields('contact', 'Anna')).toEqual({ contactName: 'Anna', agentName: null });
    expect(authorNameFields('agent', 'Lisa')).toEqual({ contactName: null, agentName: 'Lisa' });
    expect(authorNameFields('bot', 'Bot')).toEqual({ contactName: null, agentName: null });
    expect(authorNameFields('system', null)).toEqual({ contactName: null, agentName: null });
  });
});
