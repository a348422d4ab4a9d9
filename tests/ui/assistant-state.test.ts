import { describe, expect, it } from 'vitest';
import { assistantAfter, stateAtLoad } from '../../src/assistant/assistant-state.ts';

describe('the virtual assistant (SPEC §4)', () => {
  it('stays Inactive until opened, and the header toggle switches Active and Minimized', () => {
    expect(assistantAfter('Inactive', 'toggle')).toBe('Inactive');
    expect(assistantAfter('Inactive', 'open')).toBe('Active');
    expect(assistantAfter('Active', 'toggle')).toBe('Minimized');
    expect(assistantAfter('Minimized', 'toggle')).toBe('Active');
  });

  it('is minimised when a chat opens, and only then', () => {
    expect(assistantAfter('Active', 'chat-opened')).toBe('Minimized');
    expect(assistantAfter('Minimized', 'chat-opened')).toBe('Minimized');
    expect(assistantAfter('Inactive', 'chat-opened')).toBe('Inactive');
  });

  it('comes back minimised on a phone, where the open panel covers the page, and as it was on a desktop', () => {
    expect(stateAtLoad('Active', false)).toBe('Minimized');
    expect(stateAtLoad('Active', true)).toBe('Active');
    for (const desktop of [false, true]) {
      expect(stateAtLoad('Minimized', desktop)).toBe('Minimized');
      expect(stateAtLoad('Inactive', desktop)).toBe('Inactive');
    }
  });
});
