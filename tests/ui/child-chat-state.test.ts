import { describe, expect, it } from 'vitest';
import type { ConversationState } from '../../contract/conversations.ts';
import type { ChatMessageRow } from '../../worker/base/group-support.ts';
import {
  botTexts,
  canPreSubmit,
  childEntries,
  isUnexpectedCancel,
  minimizedLabel,
  phaseOf,
  placeholderOf,
  showsClosedModal,
  firstCounsellorMessageDate,
  withCounsellorMessage,
} from '../../src/one-to-one-chat/child-chat-state.ts';

const conversation = (
  state: ConversationState,
  agent: string | null = null,
  contact: string | null = null,
) => ({
  state,
  lastAgentMessageDate: agent,
  lastContactMessageDate: contact,
  queuePosition: state === 'New' ? 2 : null,
  closedDate: null,
});
const row = (
  id: number,
  authorKind: ChatMessageRow['authorKind'],
  message: string,
  at: string,
): ChatMessageRow => ({
  key: String(id),
  id,
  clientId: null,
  sendStatus: null,
  conversation: 1,
  message,
  loggedDate: at,
  authorKind,
  contactId: authorKind === 'contact' ? 7 : null,
  contactName: authorKind === 'contact' ? 'barn' : null,
  agentId: authorKind === 'agent' ? 3 : null,
  agentName: authorKind === 'agent' ? 'Kim' : null,
  createdAfterClosedConversation: false,
});
const state = { cancelledByUser: false, activeSince: null, preSubmitted: false, wasLive: true };
const T1 = '2026-11-22T12:00:00.000Z';
const T2 = '2026-11-22T12:01:00.000Z';
const T3 = '2026-11-22T12:02:00.000Z';
const BOTS = botTexts('Stödlinjen', false);

describe('the child chat window state (SPEC §4 Conversation)', () => {
  it('is in the queue until a counsellor has written, then active, and ended when final', () => {
    expect(phaseOf(conversation('New'))).toBe('queue');
    expect(phaseOf(conversation('InProgress'))).toBe('queue');
    expect(phaseOf(conversation('InProgress', T2))).toBe('active');
    for (const s of ['Resolved', 'Closed', 'Cancelled'] as const)
      expect(phaseOf(conversation(s, T2))).toBe('ended');
  });

  it('uses the placeholders and minimised bar labels of SPEC §2', () => {
    expect(placeholderOf('active', false)).toBe('Skriv ditt meddelande');
    expect(placeholderOf('queue', true)).toBe('Vad vill du chatta om?');
    expect(placeholderOf('queue', false)).toBe(
      'Du väntar på din tur. Kom tillbaka hit var 5:e minut för att stå kvar i kön',
    );
    expect(placeholderOf('ended', false)).toBe('Chatten är avslutad');
    expect(minimizedLabel('queue', false, 3)).toBe('Köplats: 3');
    expect(minimizedLabel('queue', false, null)).toBe('Chattkö');
    expect(minimizedLabel('active', false, null)).toBe('Aktiv chatt');
    expect(minimizedLabel('active', true, null)).toBe('Nya meddelanden!');
    expect(minimizedLabel('ended', false, null)).toBe('Chatten är avslutad');
    expect(minimizedLabel('ended', true, null)).toBe('Chatten är avslutad');
  });

  it('allows one pre-submit message while queued and nothing written', () => {
    expect(canPreSubmit(conversation('New'), { preSubmitted: false })).toBe(true);
    expect(canPreSubmit(conversation('New'), { preSubmitted: true })).toBe(false);
    expect(canPreSubmit(conversation('New', null, T1), { preSubmitted: false })).toBe(false);
    expect(canPreSubmit(conversation('InProgress', T1), { preSubmitted: false })).toBe(false);
  });

  it('tells an unexpected cancel from one the child made, and when the closed modal shows', () => {
    expect(isUnexpectedCancel(conversation('Cancelled'), { cancelledByUser: false })).toBe(true);
    expect(isUnexpectedCancel(conversation('Cancelled'), { cancelledByUser: true })).toBe(false);
    expect(showsClosedModal(conversation('Resolved', T1), state)).toBe(true);
    expect(showsClosedModal(conversation('Resolved', T1), { ...state, wasLive: false })).toBe(false);
    expect(showsClosedModal(conversation('Resolved', T1), { ...state, cancelledByUser: true })).toBe(false);
    expect(showsClosedModal(conversation('Cancelled'), { ...state, wasLive: false })).toBe(true);
  });

  it('leaves the queue explanation out in chat mode', () => {
    expect(BOTS).toHaveLength(4);
    expect(botTexts('Stödlinjen', true)).toHaveLength(3);
    expect(BOTS[0]).toBe('Hej och välkommen till Stödlinjens chatt!');
  });

  it('shows bots, the pre-submitted text and the queue place while waiting', () => {
    const entries = childEntries({
      rows: [row(1, 'contact', 'Jag vill prata', T1)],
      myContactId: 7,
      conversation: conversation('New', null, T1),
      state: { ...state, preSubmitted: true },
      providerName: 'Stödlinjen',
      botsShown: BOTS,
      botsDone: true,
    });
    expect(entries.map((e) => [e.label ?? '', e.content])).toEqual([
      ...BOTS.map((b) => ['Kömeddelande', b]),
      ['Dina tankar', 'Jag vill prata'],
      ['', 'Ditt meddelande har skickats'],
      ['Kömeddelande', 'Du har plats 2 i kön'],
    ]);
  });

  it('drops the queue messages once active, notes the connection, and ends with the closed text', () => {
    const rows = [
      row(1, 'contact', 'Hej', T1),
      row(2, 'agent', 'Hej, jag heter Kim', T2),
      row(3, 'contact', 'Hej Kim', T3),
    ];
    const active = childEntries({
      rows,
      myContactId: 7,
      conversation: conversation('InProgress', T2, T3),
      state,
      providerName: 'Stödlinjen',
      botsShown: BOTS,
      botsDone: true,
    });
    expect(active.map((e) => e.content)).toEqual([
      'Hej',
      'Du har nu kopplats fram till en kurator',
      'Hej, jag heter Kim',
      'Hej Kim',
    ]);
    expect(active[2]?.label).toBe('Stödlinjen Kurator Kim');

    const cancelled = childEntries({
      rows: [],
      myContactId: 7,
      conversation: conversation('Cancelled'),
      state,
      providerName: 'Stödlinjen',
      botsShown: [],
      botsDone: false,
    });
    expect(cancelled.map((e) => e.key)).toEqual(['unexpected-cancel', 'ended']);
    expect(cancelled.at(-1)?.content).toBe('Chatten är avslutad');
  });
});

describe("the window with the counsellor's first words (stored before the chat's new state)", () => {
  const words = [row(1, 'contact', 'Hej', T1), row(2, 'agent', 'Hej! Jag heter Kim.', T2)];

  it('is live from the first counsellor message it read, while the stored chat is still queued', () => {
    expect(firstCounsellorMessageDate(words)).toBe(T2);
    for (const s of ['New', 'OnHold', 'InProgress'] as const) {
      const queued = { ...conversation(s), liveSince: null };
      const shown = withCounsellorMessage(queued, firstCounsellorMessageDate(words));
      expect(phaseOf(shown)).toBe('active');
      expect(shown.liveSince).toBe(T2);
      const list = childEntries({
        rows: words,
        myContactId: 7,
        conversation: shown,
        state,
        providerName: 'Stödlinjen',
        botsShown: BOTS,
        botsDone: true,
      });
      expect(list.map((e) => e.content)).toEqual([
        'Hej',
        'Du har nu kopplats fram till en kurator',
        'Hej! Jag heter Kim.',
      ]);
    }
  });

  it('changes nothing without a counsellor message read, or once the chat is stored live or ended', () => {
    const queued = conversation('InProgress');
    expect(firstCounsellorMessageDate([words[0]!])).toBeNull();
    expect(withCounsellorMessage(queued, null)).toBe(queued);
    const live = { ...conversation('InProgress', T3), liveSince: T1 };
    expect(withCounsellorMessage(live, T2)).toBe(live);
    expect(phaseOf(withCounsellorMessage(conversation('Cancelled'), T2))).toBe('ended');
  });
});
