import { describe, expect, it } from 'vitest';
import { AWAY_WITHIN_MS, CONNECTED_WITHIN_MS } from '../../contract/timings.ts';
import { participantState } from '../../src/meeting-ui/participant-presence.ts';

const now = new Date('2026-11-22T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
/** A row whose last connect and ping lie `ms` back. */
const row = (contact: number, ms: number) => ({
  contact,
  connectedDate: ago(ms),
  lastPingedDate: ago(ms),
  disconnectedDate: null,
});
const ME = 5;

describe('a participant’s dot in Deltagare', () => {
  it('shows oneself Connected while one’s hub connection is, however old the cached row', () => {
    const old = row(ME, AWAY_WITHIN_MS + 60_000);
    expect(participantState(old, now, { contactId: ME, hubState: 'Connected' })).toBe('Connected');
    expect(
      participantState({ ...old, disconnectedDate: ago(1000) }, now, {
        contactId: ME,
        hubState: 'Connected',
      }),
    ).toBe('Connected');
  });

  it('applies the 2/5-minute rule to oneself while one’s hub connection is down', () => {
    const stale = row(ME, CONNECTED_WITHIN_MS + 30_000);
    expect(participantState(stale, now, { contactId: ME, hubState: 'Reconnecting' })).toBe('Away');
    expect(participantState(stale, now, { contactId: ME, hubState: undefined })).toBe('Away');
  });

  it('applies the 2/5-minute rule to everyone else', () => {
    const own = { contactId: ME, hubState: 'Connected' as const };
    expect(participantState(row(6, CONNECTED_WITHIN_MS - 1000), now, own)).toBe('Connected');
    expect(participantState(row(6, CONNECTED_WITHIN_MS + 30_000), now, own)).toBe('Away');
    expect(participantState(row(6, AWAY_WITHIN_MS + 1000), now, own)).toBe('Disconnected');
  });
});
