import { describe, expect, it } from 'vitest';
import type { ChatMessageRow } from '../../worker/base/group-support.ts';
import { chatEntries, sendStatusText } from '../../src/chat-window/chat-messages.ts';

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
  it('sorts by loggedDate and labels staff, other contacts and me', () => {
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
      ['staff', 'Lisa'],
      ['me', ''],
      ['otherContact', 'Anna'],
      ['me', ''],
    ]);
    expect(entries[3]?.sendStatus).toBe('sending');
  });

  it('orders sent messages by the server time and id, and unsent ones last in the order written', () => {
    const entries = chatEntries(
      [
        row({ id: null, key: 'local:b', clientId: 'b', sendStatus: 'failed', message: 'andra osända' }),
        row({ id: 5, message: 'samma tid, senare id', loggedDate: '2026-11-22T12:05:00.000Z' }),
        row({
          id: null,
          key: 'local:a',
          clientId: 'a',
          sendStatus: 'sending',
          message: 'första osända',
          loggedDate: '2026-11-22T11:00:00.000Z',
        }),
        row({ id: 4, message: 'samma tid', loggedDate: '2026-11-22T12:05:00.000Z' }),
        row({ id: 9, message: 'kuratorn', authorKind: 'agent', loggedDate: '2026-11-22T12:01:00.000Z' }),
      ],
      9,
    );
    expect(entries.map((e) => e.content)).toEqual([
      'kuratorn',
      'samma tid',
      'samma tid, senare id',
      'första osända',
      'andra osända',
    ]);
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

describe('send status under my own messages', () => {
  const SERVER_TEXT = 'Du har skickat många gånger på kort tid. Vänta en stund och försök igen.';
  const mine = (over: Partial<ChatMessageRow>) =>
    chatEntries([row({ id: null, key: 'local:c1', clientId: 'c1', ...over })], 9)[0]!;

  it("keeps SPEC's tooltips for sending, sent and failed", () => {
    expect(sendStatusText(mine({ sendStatus: 'sending' }))).toBe('Skickar...');
    expect(sendStatusText(mine({ sendStatus: 'sent' }))).toBe('Skickat');
    expect(sendStatusText(mine({ sendStatus: 'failed' }))).toBe('Gick inte att skicka meddelandet');
    expect(sendStatusText(chatEntries([row({ contactId: 5, sendStatus: 'failed' })], 9)[0]!)).toBeNull();
  });

  it("shows the server's words, not the failure tooltip, while a message waits after a 429", () => {
    const waiting = mine({ sendStatus: 'waiting', sendNotice: SERVER_TEXT });
    expect(waiting.sendNotice).toBe(SERVER_TEXT);
    expect(sendStatusText(waiting)).toBe(SERVER_TEXT);
  });

  it('says in its own words that the message will be sent when the server gave none', () => {
    expect(sendStatusText(mine({ sendStatus: 'waiting' }))).toBe(
      'Du har skickat många meddelanden på kort tid. Meddelandet skickas om en stund.',
    );
  });
});
