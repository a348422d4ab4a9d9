import { describe, expect, it } from 'vitest';
import type { ConversationState } from '../../contract/conversations.ts';
import { DEBUG_WINDOW_MS } from '../../contract/timings.ts';
import {
  detailBadge,
  hasHistoricConversation,
  opensChatAutomatically,
  registerTap,
  showOpenChat,
  showPrivateMessage,
} from '../../src/meeting-ui/meeting-detail-state.ts';

const T = '2026-11-22T12:00:00.000Z';
const conv = (state: ConversationState, agent: string | null = null) => ({
  state,
  lastAgentMessageDate: agent,
  lastContactMessageDate: null,
});

describe('meeting detail badge', () => {
  it('follows meeting and conversation', () => {
    expect(detailBadge({ state: 'InProgress' }, null)).toBe('Chatten börjar strax');
    expect(detailBadge({ state: 'InProgress' }, conv('InProgress'))).toBe('Chatten börjar strax');
    expect(detailBadge({ state: 'InProgress' }, conv('InProgress', T))).toBe('Pågående');
    expect(detailBadge({ state: 'InProgress' }, conv('Resolved', T))).toBe('Chatten är avslutad');
    expect(detailBadge({ state: 'NotStarted' }, null)).toBe('Kommande');
    expect(detailBadge({ state: 'Completed' }, conv('Closed', T))).toBe('Avslutad');
    expect(detailBadge({ state: 'Cancelled' }, null)).toBe('Inställd');
    expect(detailBadge({ state: 'Cancelled' }, conv('Closed', T))).toBe('Inställd');
  });
});

describe('meeting detail buttons and cards', () => {
  it('offers the history once the conversation ended', () => {
    expect(hasHistoricConversation(conv('Resolved'))).toBe(true);
    expect(hasHistoricConversation(conv('Cancelled'))).toBe(true);
    expect(hasHistoricConversation(conv('InProgress', T))).toBe(false);
    expect(hasHistoricConversation(null)).toBe(false);
  });

  it("offers 'Öppna chatt' while closed and the meeting runs", () => {
    expect(showOpenChat(false, { state: 'InProgress' }, null)).toBe(true);
    expect(showOpenChat(false, { state: 'InProgress' }, conv('InProgress', T))).toBe(true);
    expect(showOpenChat(true, { state: 'InProgress' }, conv('InProgress', T))).toBe(false);
    expect(showOpenChat(false, { state: 'InProgress' }, conv('Resolved', T))).toBe(false);
    expect(showOpenChat(false, { state: 'NotStarted' }, null)).toBe(false);
  });

  it('opens the chat by itself only when active and in progress', () => {
    expect(opensChatAutomatically({ state: 'InProgress' }, conv('InProgress', T))).toBe(true);
    expect(opensChatAutomatically({ state: 'InProgress' }, conv('InProgress'))).toBe(false);
    expect(opensChatAutomatically({ state: 'Completed' }, conv('InProgress', T))).toBe(false);
  });

  it('shows the private message form while in progress or not started', () => {
    expect(showPrivateMessage({ state: 'InProgress' })).toBe(true);
    expect(showPrivateMessage({ state: 'NotStarted' })).toBe(true);
    expect(showPrivateMessage({ state: 'Completed' })).toBe(false);
    expect(showPrivateMessage({ state: 'Cancelled' })).toBe(false);
  });
});

describe('debug taps', () => {
  it('reveals after five taps within five seconds', () => {
    let taps: number[] = [];
    let reveal = false;
    for (const at of [0, 1000, 2000, 3000]) ({ taps, reveal } = registerTap(taps, at));
    expect(reveal).toBe(false);
    expect(registerTap(taps, 4000).reveal).toBe(true);
    expect(registerTap(taps, DEBUG_WINDOW_MS + 100).reveal).toBe(false);
  });
});
