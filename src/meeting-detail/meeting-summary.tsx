import { useRef, useState, type ReactNode } from 'react';
import type { ConversationRow, MeetingRow } from '../../worker/client/group-support.ts';
import { card } from '../meeting-ui/meeting.styles.ts';
import { descriptionHtml } from '../conversation-ui/html-content.ts';
import { detailBadge, registerTap } from '../meeting-ui/meeting-detail-state.ts';
import { meetingStartTime } from '../meeting-ui/meeting-state.ts';
import { SafeHtml } from '../conversation-ui/safe-html.tsx';
import { badgeKind, MeetingBadge } from '../meeting-list/meeting-badge.tsx';
import { debugBlock, title } from './meeting-detail.styles.ts';
import { MEETING_DETAIL_TEXTS as T } from './texts.ts';

export interface MeetingSummaryProps {
  meeting: MeetingRow;
  conversation: ConversationRow | null | undefined;
  children?: ReactNode;
}

/** The detail card: subject, start time, status badge, description; 5 taps reveal a debug block. */
export function MeetingSummary({ meeting, conversation, children }: MeetingSummaryProps) {
  const taps = useRef<number[]>([]);
  const [debug, setDebug] = useState(false);
  const badgeText = detailBadge(meeting, conversation);
  const startTime = meetingStartTime(meeting);

  const onTap = () => {
    const next = registerTap(taps.current, Date.now());
    taps.current = next.taps;
    if (next.reveal) setDebug(true);
  };

  return (
    <section className={card} aria-labelledby="meeting-title">
      <h1 id="meeting-title" className={title} onClick={onTap}>
        {meeting.subject}
      </h1>
      {startTime !== null && <p>{startTime}</p>}
      <MeetingBadge text={badgeText} kind={badgeKind(badgeText)} />
      {meeting.descriptionBodyContent && (
        <SafeHtml
          html={descriptionHtml(meeting.descriptionBodyContent, meeting.descriptionBodyContentType)}
        />
      )}
      {children}
      {debug && (
        <pre className={debugBlock} aria-label={T.debug}>
          {JSON.stringify(
            {
              meetingId: meeting.id,
              state: meeting.state,
              sessionState: meeting.sessionState,
              conversation: conversation
                ? {
                    id: conversation.id,
                    state: conversation.state,
                    lastAgentMessageDate: conversation.lastAgentMessageDate,
                  }
                : null,
              fetchedAt: new Date(meeting.fetchedAt).toISOString(),
            },
            null,
            2,
          )}
        </pre>
      )}
    </section>
  );
}
