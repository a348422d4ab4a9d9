import type { HubState } from '../../worker/client/api.ts';

/** SPEC §8 Connection trouble: offline, or the real-time connection is down or reconnecting. */
export function isConnectionTrouble(online: boolean, hubState: HubState): boolean {
  return !online || hubState === 'Reconnecting' || hubState === 'Disconnected';
}
