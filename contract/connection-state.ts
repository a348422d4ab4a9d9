import type { ConversationConnectionWire } from './conversations.ts';
import { AWAY_WITHIN_MS, CONNECTED_WITHIN_MS } from './timings.ts';

/**
 * SPEC §4 Connection state of a participant: last connect or ping within 2 minutes Connected,
 * within 5 minutes Away, older Disconnected; a disconnect after the latest connect or ping is
 * Disconnected; no connect date is Away. The participant's app and the group leader's console
 * both show it, so the rule lives here once.
 */
export type ConnectionState = 'Connected' | 'Away' | 'Disconnected';

export type ConnectionDates = Pick<
  ConversationConnectionWire,
  'connectedDate' | 'lastPingedDate' | 'disconnectedDate'
>;

const ms = (iso: string | null) => (iso ? new Date(iso).getTime() : null);

export function connectionState(connection: ConnectionDates, now: Date = new Date()): ConnectionState {
  const connected = ms(connection.connectedDate);
  if (connected === null) return 'Away';
  const latest = Math.max(connected, ms(connection.lastPingedDate) ?? connected);
  const disconnected = ms(connection.disconnectedDate);
  if (disconnected !== null && disconnected > latest) return 'Disconnected';
  const age = now.getTime() - latest;
  if (age <= CONNECTED_WITHIN_MS) return 'Connected';
  if (age <= AWAY_WITHIN_MS) return 'Away';
  return 'Disconnected';
}
