import { useEffect } from 'react';
import { Link } from 'wouter';
import type { MeetingRow } from '../../worker/client/group-support.ts';
import { useApi } from '../data/index.ts';
import { card, row } from '../meeting-ui/meeting.styles.ts';
import { meetingBadge, meetingButton, meetingTimeLine } from '../meeting-ui/meeting-state.ts';
import { MeetingTasks } from '../meeting-tasks/meeting-tasks.tsx';
import { primaryButton } from '../styles/controls.ts';
import { badgeKind, MeetingBadge } from './meeting-badge.tsx';
import { MEETING_CARD_SUBSCRIBE_DELAY_MS } from '../../contract/timings.ts';

export function MeetingCard({ meeting, now }: { meeting: MeetingRow; now: Date }) {
  const api = useApi();
  const id = meeting.id;

  useEffect(() => {
    let watching = false;
    const timer = setTimeout(() => {
      watching = true;
      api.watchMeeting(id, true).catch((error: unknown) => console.error('watchMeeting', error));
    }, MEETING_CARD_SUBSCRIBE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      if (watching)
        api.watchMeeting(id, false).catch((error: unknown) => console.error('watchMeeting', error));
    };
  }, [api, id]);

  const badgeText = meetingBadge(meeting);
  return (
    <li className={card} data-meeting-id={id}>
      <h4>{meeting.subject}</h4>
      <p>{meetingTimeLine(meeting, now)}</p>
      <MeetingBadge text={badgeText} kind={badgeKind(badgeText)} />
      <div className={row}>
        <Link
          href={`/tillfalle/${id}`}
          className={primaryButton}
          aria-label={`${meetingButton(meeting)}: ${meeting.subject}`}
        >
          {meetingButton(meeting)}
        </Link>
      </div>
      <MeetingTasks meetingId={id} canDelete={false} headingLevel={5} loadOnOpen />
    </li>
  );
}
