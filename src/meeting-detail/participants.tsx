import { connectionState } from '../../contract/connection-state.ts';
import { PresenceDot } from '../../client-kit/presence/presence-dot.tsx';
import { expandable, muted } from '../group-support/group-support.styles.ts';
import { useConnections } from '../group-support/hooks.ts';
import { useNow } from '../group-support/use-now.ts';
import { participants } from './meeting-detail.styles.ts';
import { MEETING_DETAIL_TEXTS as T } from './texts.ts';

/** 'Deltagare': each participant with a dot and its state in words (not colour only). */
export function Participants({ conversationId }: { conversationId: number | null }) {
  const now = useNow(30_000);
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
            const state = connectionState(c, now);
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
