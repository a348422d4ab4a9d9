import { PRESENCE_REFRESH_MS } from '../../contract/timings.ts';
import { PresenceDot } from '../../client-kit/presence/presence-dot.tsx';
import { expandable, muted } from '../meeting-ui/meeting.styles.ts';
import { useConnections, useHubState } from '../data/meeting-and-chat-hooks.ts';
import { participantState } from '../meeting-ui/participant-presence.ts';
import { useProfile } from '../data/hooks.ts';
import { useNow } from '../ui-kit/use-now.ts';
import { participants } from './meeting-detail.styles.ts';
import { MEETING_DETAIL_TEXTS as T } from './texts.ts';

/**
 * 'Deltagare': each participant with a dot and its state in words (not colour only). The worker
 * refetches the rows on presence events and every PRESENCE_REFRESH_MS while the chat is open; the
 * SPEC §4 rule is applied again as often, so rows age into 'Borta' without any write.
 */
export function Participants({ conversationId }: { conversationId: number | null }) {
  const now = useNow(PRESENCE_REFRESH_MS);
  const own = { contactId: useProfile()?.contactId, hubState: useHubState() };
  const rows = useConnections(conversationId) ?? [];
  const sorted = [...rows].sort((a, b) => a.contactName.localeCompare(b.contactName, 'sv'));
  return (
    <details className={expandable}>
      <summary>{T.participants}</summary>
      {sorted.length === 0 ? (
        <p className={muted}>{T.noParticipants}</p>
      ) : (
        <ul className={participants}>
          {sorted.map((c) => {
            const state = participantState(c, now, own);
            return (
              <li key={c.key}>
                <PresenceDot state={state} />
                <span>{c.contactName}</span>
                <span className={muted}>({T.connection[state]})</span>
              </li>
            );
          })}
        </ul>
      )}
    </details>
  );
}
