/**
 * SPEC §4 "Connection state of a participant", as the server reports it to group leaders. The same
 * rule lives in src/group-support/connection-state.ts; the server may import only contract/, so it
 * is repeated here (moving it to contract/ would let both share it).
 */
export type Presence = 'Connected' | 'Away' | 'Disconnected';

export const CONNECTED_WITHIN_MS = 2 * 60_000;
export const AWAY_WITHIN_MS = 5 * 60_000;

export interface ConnectionDates {
  connectedDate: string | null;
  lastPingedDate: string | null;
  disconnectedDate: string | null;
}

const ms = (iso: string | null) => (iso ? new Date(iso).getTime() : null);

export function presenceOf(c: ConnectionDates, now: Date = new Date()): Presence {
  const connected = ms(c.connectedDate);
  if (connected === null) return 'Away';
  const latest = Math.max(connected, ms(c.lastPingedDate) ?? connected);
  const disconnected = ms(c.disconnectedDate);
  if (disconnected !== null && disconnected > latest) return 'Disconnected';
  const age = now.getTime() - latest;
  if (age <= CONNECTED_WITHIN_MS) return 'Connected';
  if (age <= AWAY_WITHIN_MS) return 'Away';
  return 'Disconnected';
}
