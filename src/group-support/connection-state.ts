import type { ConversationConnectionWire } from '../../contract/conversations.ts';

/** SPEC §4 Connection state of a participant. */
export type ConnectionState = 'Connected' | 'Away' | 'Disconnected';

export const CONNECTED_WITHIN_MS = 2 * 60_000;
export const AWAY_WITHIN_MS = 5 * 60_000;

type ConnectionLike = Pick<
  ConversationConnectionWire,
  'connectedDate' | 'lastPingedDate' | 'disconnectedDate'
>;

const ms = (iso: string | null) => (iso ? new Date(iso).getTime() : null);

export function connectionState(connection: ConnectionLike, now: Date = new Date()): ConnectionState {
  const connected = ms(connection.connectedDate);
  if (connected === null) return 'Away';
  const pinged = ms(connection.lastPingedDate);
  const latest = Math.max(connected, pinged ?? connected);
  const disconnected = ms(connection.disconnectedDate);
  if (disconnected !== null && disconnected > latest) return 'Disconnected';
  const age = now.getTime() - latest;
  if (age <= CONNECTED_WITHIN_MS) return 'Connected';
  if (age <= AWAY_WITHIN_MS) return 'Away';
  return 'Disconnected';
}
