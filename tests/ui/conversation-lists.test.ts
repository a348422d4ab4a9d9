import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../contract/conversations.ts';
import {
  chatHistory,
  conversationType,
  hasUnreadMessages,
  isFavorite,
  lastActivity,
  mailThreads,
} from '../../src/my-conversations/conversation-lists.ts';

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
    conversation({ id: 7, systemType: 'groupchat', state: 'Resolved', meetingId: 9 }),
  ];

  it('mail threads: only mail, the most recently active first', () => {
    expect(mailThreads(rows).map((c) => c.id)).toEqual([2, 1]);
    expect(lastActivity(rows[1]!)).toBe('2026-05-03T10:00:00.000Z');
  });

  it('chat history: only finished one-to-one chats, the newest first', () => {
    expect(chatHistory(rows).map((c) => c.id)).toEqual([5, 3, 6]);
  });
});
