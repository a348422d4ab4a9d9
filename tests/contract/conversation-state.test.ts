import { describe, expect, it } from 'vitest';
import type { ConversationState } from '../../contract/conversations.ts';
import {
  allowPreSubmit,
  isActive,
  isCancelled,
  isEnded,
  isGroupSoonStarting,
  isInQueue,
  isResolvedOrClosed,
} from '../../contract/conversation-state.ts';
import { minutesText } from '../../src/chat-window/texts.ts';

const c = (state: ConversationState, agent: string | null = null, contact: string | null = null) => ({
  state,
  lastAgentMessageDate: agent,
  lastContactMessageDate: contact,
});
const T = '2026-11-22T12:00:00.000Z';

describe('conversation helper checks', () => {
  it('is in queue when new, responded, on hold, or in progress without an agent message', () => {
    for (const s of ['New', 'Responded', 'OnHold'] as const) expect(isInQueue(c(s))).toBe(true);
    expect(isInQueue(c('InProgress'))).toBe(true);
    expect(isInQueue(c('InProgress', T))).toBe(false);
    expect(isInQueue(null)).toBe(false);
  });

  it('is active when in progress with an agent message', () => {
    expect(isActive(c('InProgress', T))).toBe(true);
    expect(isActive(c('InProgress'))).toBe(false);
    expect(isActive(undefined)).toBe(false);
  });

  it('knows resolved/closed and cancelled', () => {
    expect(isResolvedOrClosed(c('Resolved'))).toBe(true);
    expect(isResolvedOrClosed(c('Closed'))).toBe(true);
    expect(isResolvedOrClosed(c('Cancelled'))).toBe(false);
    expect(isCancelled(c('Cancelled'))).toBe(true);
    expect(isEnded(c('Cancelled'))).toBe(true);
    expect(isEnded(c('InProgress', T))).toBe(false);
  });

  it('knows a group soon starting', () => {
    expect(isGroupSoonStarting(c('InProgress'))).toBe(true);
    expect(isGroupSoonStarting(c('InProgress', T))).toBe(false);
    expect(isGroupSoonStarting(c('InProgress'), false)).toBe(false);
    expect(isGroupSoonStarting(c('New'))).toBe(false);
  });

  it('allows pre-submit while in queue before the contact wrote', () => {
    expect(allowPreSubmit(c('New'))).toBe(true);
    expect(allowPreSubmit(c('New', null, T))).toBe(false);
    expect(allowPreSubmit(c('InProgress', T))).toBe(false);
  });

  it('says minut or minuter', () => {
    expect(minutesText(1)).toBe('1 minut');
    expect(minutesText(0)).toBe('0 minuter');
    expect(minutesText(12)).toBe('12 minuter');
  });
});
