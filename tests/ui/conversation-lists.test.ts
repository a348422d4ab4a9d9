import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../contract/conversations.ts';
import {
  chatHistory,
  conversationType,
  hasUnreadMessages,
  isFavorite,
  lastActivity,
  mailThreads,
  pendingMails,
} from '../../src/conversation-ui/conversation-lists.ts';
import type { OutboxRow } from '../../worker/base/db.ts';

const conversation = (over: Partial<Conversation>): Conversation => ({
  id: 1,
  subject: '',
  state: 'New',
  loggedDate: '2026-05-01T10:00:00.000Z',
  closedDate: null,
  readDate: null,
  rating: null,
  systemType: 'mail',
  messageCount: 1,
  lastAgentMessageDate: null,
  lastContactMessageDate: null,
  queuePosition: null,
  channel: null,
  meetingId: null,
  liveSince: null,
  limitEndsAt: null,
  ...over,
});

describe('hasUnreadMessages (SPEC §3)', () => {
  it('is false without an agent message', () => {
    expect(hasUnreadMessages(conversation({}))).toBe(false);
  });
  it('is true with an agent message and no read date', () => {
    expect(hasUnreadMessages(conversation({ lastAgentMessageDate: '2026-05-02T10:00:00.000Z' }))).toBe(true);
  });
  it('is true when read before the last agent message, false when read after it', () => {
    const answered = { lastAgentMessageDate: '2026-05-02T10:00:00.000Z' };
    expect(hasUnreadMessages(conversation({ ...answered, readDate: '2026-05-02T09:59:59.000Z' }))).toBe(true);
    expect(hasUnreadMessages(conversation({ ...answered, readDate: '2026-05-02T10:00:00.000Z' }))).toBe(
      false,
    );
    expect(hasUnreadMessages(conversation({ ...answered, readDate: '2026-05-03T08:00:00.000Z' }))).toBe(
      false,
    );
  });
});

describe('isFavorite (SPEC §3, §9: rating above 3)', () => {
  it.each([
    [null, false],
    [1, false],
    [3, false],
    [4, true],
    [5, true],
  ])('rating %s gives %s', (rating, expected) => {
    expect(isFavorite(conversation({ rating }))).toBe(expected);
  });
});

describe('conversationType', () => {
  it('is chat when the system type contains chat, mail otherwise, groupchat for a meeting', () => {
    expect(conversationType(conversation({ systemType: 'chat' }))).toBe('chat');
    expect(conversationType(conversation({ systemType: 'mail' }))).toBe('mail');
    expect(conversationType(conversation({ systemType: 'groupchat', meetingId: 4 }))).toBe('groupchat');
    expect(conversationType(conversation({ systemType: 'chat', meetingId: 4 }))).toBe('groupchat');
  });
});

describe('lists of my pages', () => {
  const rows = [
    conversation({ id: 1, systemType: 'mail', loggedDate: '2026-05-01T10:00:00.000Z' }),
    conversation({
      id: 2,
      systemType: 'mail',
      loggedDate: '2026-04-01T10:00:00.000Z',
      lastAgentMessageDate: '2026-05-03T10:00:00.000Z',
    }),
    conversation({ id: 3, systemType: 'chat', state: 'Resolved', loggedDate: '2026-05-02T10:00:00.000Z' }),
    conversation({ id: 4, systemType: 'chat', state: 'InProgress', loggedDate: '2026-05-04T10:00:00.000Z' }),
    conversation({ id: 5, systemType: 'chat', state: 'Cancelled', loggedDate: '2026-05-05T10:00:00.000Z' }),
    conversation({ id: 6, systemType: 'chat', state: 'Closed', loggedDate: '2026-04-05T10:00:00.000Z' }),
    conversation({
      id: 7,
      systemType: 'groupchat',
      state: 'Resolved',
      meetingId: 9,
      loggedDate: '2026-05-03T10:00:00.000Z',
    }),
    conversation({ id: 8, systemType: 'groupchat', state: 'InProgress', meetingId: 10 }),
  ];

  it('mail threads: only mail, the most recently active first', () => {
    expect(mailThreads(rows).map((c) => c.id)).toEqual([2, 1]);
    expect(lastActivity(rows[1]!)).toBe('2026-05-03T10:00:00.000Z');
  });

  it("chat history: finished chats, a meeting's group chat too, the newest first", () => {
    expect(chatHistory(rows).map((c) => c.id)).toEqual([5, 7, 3, 6]);
  });
});

describe('pending mails on my pages', () => {
  const outboxRow = (over: Partial<OutboxRow>): OutboxRow => ({
    clientId: 'c1',
    kind: 'mail',
    path: '/mail',
    body: { subject: 'Hemma', text: 'Hej' },
    orderKey: 'mail:c1',
    status: 'queued',
    attempts: 0,
    createdAt: 1,
    nextAttemptAt: 1,
    ...over,
  });

  it('lists mails still to be sent, not chat messages, sent ones or ones refused for good', () => {
    const rows = [
      outboxRow({ clientId: 'a' }),
      outboxRow({ clientId: 'b', status: 'failed', lastStatus: 0 }),
      outboxRow({ clientId: 'c', status: 'failed', final: true, lastStatus: 422 }),
      outboxRow({ clientId: 'd', status: 'sent' }),
      outboxRow({ clientId: 'e', kind: 'conversationmessage' }),
    ];
    expect(pendingMails(rows)).toEqual([
      { clientId: 'a', subject: 'Hemma', status: 'Väntar på att skickas' },
      { clientId: 'b', subject: 'Hemma', status: 'Väntar på att skickas' },
    ]);
  });

  it('says what the server said when it asked to wait (429), or that the mail is sent in a while', () => {
    const message = 'Du har skickat många gånger på kort tid. Vänta en stund och försök igen.';
    const limited = { status: 'failed', lastStatus: 429 } as const;
    expect(pendingMails([outboxRow({ ...limited, lastMessage: message })])[0]?.status).toBe(message);
    expect(pendingMails([outboxRow(limited)])[0]?.status).toBe(
      'Du har skickat många meddelanden på kort tid. Meddelandet skickas om en stund.',
    );
  });
});
