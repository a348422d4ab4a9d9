import type { HubState } from '../../worker/client/api.ts';

/** SPEC §8 Connection trouble: offline, or the real-time connection is down or reconnecting. */
export function isConnectionTrouble(online: boolean, hubState: HubState): boolean {
  return !online || hubState === 'Reconnecting' || hubState === 'Disconnected';
}

/**
 * Which notice the chat window shows, if any: the server answering only with errors is said as it
 * is (the network works; SERVICE_NOT_ANSWERING_TEXT), before the connection trouble of SPEC §8.
 */
export function connectionNotice(state: {
  online: boolean;
  hubState: HubState;
  serverTrouble: boolean;
}): 'server' | 'connection' | null {
  if (state.online && state.serverTrouble) return 'server';
  return isConnectionTrouble(state.online, state.hubState) ? 'connection' : null;
}
