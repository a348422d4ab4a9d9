import { describe, expect, it } from 'vitest';
import type { ChatMessageRow } from '../../worker/client/group-support.ts';
import { chatEntries } from '../../src/chat-window/chat-messages.ts';

const row = (over: Partial<ChatMessageRow>): ChatMessageRow => ({
  key: String(over.id ?? over.clientId),
  id: 1,
  clientId: null,
  sendStatus: null,
  conversation: 7,
  message: 'hej',
  loggedDate: '2026-11-22T12:00:00.000Z',
  authorKind: 'contact',
  contactId: null,
  contactName: null,
  agentId: null,
  agentName: null,
  createdAfterClosedConversation: false,
  ...over,
});

describe('chat entries', () => {
  it('sorts by loggedDate and labels leader, other contacts and me', () => {
    const entries = chatEntries(
      [
        row({ id: 3, loggedDate: '2026-11-22T12:03:00.000Z', contactId: 5, contactName: 'Anna' }),
        row({ id: 1, loggedDate: '2026-11-22T12:01:00.000Z', authorKind: 'agent', agentName: 'Lisa' }),
        row({ id: 2, loggedDate: '2026-11-22T12:02:00.000Z', contactId: 9, contactName: 'Jag' }),
        row({
          id: null,
          key: 'local:c1',
          clientId: 'c1',
          sendStatus: 'sending',
          loggedDate: '2026-11-22T12:04:00.000Z',
          contactId: 9,
        }),
      ],
      9,
    );
    expect(entries.map((e) => [e.authorType, e.authorName])).toEqual([
      ['leader', 'Lisa'],
      ['me', ''],
      ['otherContact', 'Anna'],
      ['me', ''],
    ]);
    expect(entries[3]?.sendStatus).toBe('sending');
  });

  it('marks consecutive messages of the same author', () => {
    const entries = chatEntries(
      [
        row({ id: 1, contactId: 5, contactName: 'Anna', loggedDate: '2026-11-22T12:01:00.000Z' }),
        row({ id: 2, contactId: 5, contactName: 'Anna', loggedDate: '2026-11-22T12:02:00.000Z' }),
      ],
      9,
    );
    expect(entries.map((e) => e.sameAuthorAsPreviousMessage)).toEqual([false, true]);
  });
});
