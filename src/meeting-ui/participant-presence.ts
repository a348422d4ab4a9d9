import {
  connectionState,
  type ConnectionDates,
  type ConnectionState,
} from '../../contract/connection-state.ts';
import type { HubState } from '../../worker/client/session.ts';

export interface ParticipantRow extends ConnectionDates {
  contact: number;
}

/**
 * A participant's dot in 'Deltagare' (SPEC §2, §4): the 2/5-minute rule on the cached row, except
 * for oneself, who is Connected while one's own hub connection is: the cached row only moves with a
 * refetch, and one should never see oneself 'Borta' while online.
 */
export function participantState(
  row: ParticipantRow,
  now: Date,
  own: { contactId: number | undefined; hubState: HubState | undefined },
): ConnectionState {
  if (row.contact === own.contactId && own.hubState === 'Connected') return 'Connected';
  return connectionState(row, now);
}
