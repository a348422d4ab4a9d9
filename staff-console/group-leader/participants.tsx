import { useEffect } from 'react';
import { PresenceDot } from '../../client-kit/presence/presence-dot.tsx';
import { HUB_EVENTS, entityKey } from '../../contract/hub.ts';
import { useEntitySubscription, useHubEvent, useHubReconnected } from '../api/staff-hub.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { card, errorText, mutedText } from '../ui/styles.ts';
import { plainList, row, stack } from './group-leader.styles.ts';
import { AddParticipant } from './add-participant.tsx';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { ParticipantList } from './types.ts';
import { useStaffGet } from '../api/use-staff-get.ts';
import { PRESENCE_REFRESH_MS } from '../../contract/timings.ts';

/** The series' participants with a presence dot for the meeting's group chat (live). */
export function Participants({
  seriesId,
  meetingId,
  canAdd = false,
}: {
  seriesId: number;
  meetingId: number | null;
  canAdd?: boolean;
}) {
  const path = `/series/${seriesId}/participants${meetingId === null ? '' : `?meetingId=${meetingId}`}`;
  const list = useStaffGet<ParticipantList>(path);
  const conversationId = list.data?.conversationId ?? null;
  useEntitySubscription(conversationId === null ? null : entityKey('Conversation', conversationId));
  const onPresence = (data: unknown) => {
    if ((data as { conversationId?: number } | null)?.conversationId === conversationId) list.reload();
  };
  useHubEvent(HUB_EVENTS.contactConnected, onPresence);
  useHubEvent(HUB_EVENTS.contactDisconnected, onPresence);
  // A started chat brings a conversation to watch (for the series view, which has no meeting of its own).
  useHubEvent(HUB_EVENTS.meetingUpdated, list.reload);
  useHubReconnected(list.reload);
  const { reload } = list;
  useEffect(() => {
    const timer = setInterval(reload, PRESENCE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <section className={`${card} ${stack}`} aria-labelledby={`gl-participants-${seriesId}`}>
      <h2 id={`gl-participants-${seriesId}`}>{T.participants.heading}</h2>
      {list.error && (
        <p className={errorText} role="alert">
          {list.error}
        </p>
      )}
      {!list.data && list.loading && <Spinner label={T.loading} />}
      {list.data?.value.length === 0 && <p className={mutedText}>{T.participants.empty}</p>}
      {list.data && list.data.value.length > 0 && (
        <ul className={plainList} aria-label={T.participants.heading}>
          {list.data.value.map((p) => (
            <li key={p.accountId} className={row}>
              <PresenceDot state={p.presence} />
              <span>
                {p.name}
                <span className={mutedText}> – {T.participants.presence[p.presence]}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {canAdd && <AddParticipant seriesId={seriesId} onCreated={list.reload} />}
    </section>
  );
}
