import { useState } from 'react';
import { Link } from 'wouter';
import { useStaffApi } from '../api/staff-api.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { button, card, dangerButton, errorText, mutedText, secondaryButton } from '../ui/styles.ts';
import { columns, row, screen, stack, linkButton } from './group-leader.styles.ts';
import { Appendices } from './appendices.tsx';
import { StaffConfirmDialog } from '../ui/confirm-dialog.tsx';
import { formatDateAndClockTime } from '../../client-kit/time/format-time.ts';
import { GroupChat } from './group-chat.tsx';
import { MeetingBadge } from './meeting-badge.tsx';
import { MeetingForm } from './meeting-form.tsx';
import { Participants } from './participants.tsx';
import { PrivateMessages } from './private-messages.tsx';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { Meeting } from './types.ts';
import { useFocusOnMount } from './use-focus-on-mount.ts';
import { useMeetings } from './use-meetings.ts';
import { seriesPath } from './paths.ts';
import { isMeetingInProgress, isMeetingNotStarted, isMeetingOver } from '../../contract/meeting-state.ts';

type Action = 'start' | 'end' | 'cancel';

/** One meeting: its details, editing, cancelling, the group chat, participants, appendices and homework. */
export function MeetingView({ seriesId, meetingId }: { seriesId: number; meetingId: number }) {
  const api = useStaffApi();
  const meetings = useMeetings();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState<Action | null>(null);
  const [busy, setBusy] = useState<Action | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const meeting = meetings.data?.value.find((m) => m.id === meetingId && m.series.id === seriesId);

  async function act(action: Action) {
    setBusy(action);
    setFailure(null);
    try {
      await api.post<Meeting>(`/meetings/${meetingId}/${action}`, {});
      meetings.reload();
    } catch (err) {
      setFailure(err instanceof Error ? err.message : T.loadFailed);
    } finally {
      setBusy(null);
    }
  }

  const back = (
    <div className={row}>
      <Link href={seriesPath(seriesId)} className={`${button} ${secondaryButton} ${linkButton}`}>
        {T.backToMeetings}
      </Link>
    </div>
  );

  if (!meeting) {
    return (
      <section className={screen} aria-labelledby="gl-meeting-title">
        {back}
        <h1 id="gl-meeting-title" ref={heading} tabIndex={-1}>
          {meetings.data ? T.notFound : T.loading}
        </h1>
        {meetings.error && (
          <p className={errorText} role="alert">
            {meetings.error}
          </p>
        )}
        {!meetings.data && <Spinner label={T.loading} />}
      </section>
    );
  }

  const open = !isMeetingOver(meeting);
  return (
    <section className={screen} aria-labelledby="gl-meeting-title">
      {back}
      <div className={`${card} ${stack}`}>
        <div>
          <h1 id="gl-meeting-title" ref={heading} tabIndex={-1}>
            {meeting.subject}
          </h1>
          <p style={{ margin: '0.25rem 0 0' }}>
            <MeetingBadge state={meeting.state} />{' '}
            <span className={mutedText}>
              {T.startLabel}: {formatDateAndClockTime(meeting.startDate)} · {T.durationLabel}:{' '}
              {T.minutes(meeting.duration)}
            </span>
          </p>
        </div>
        {meeting.descriptionBodyContent && (
          <p style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{meeting.descriptionBodyContent}</p>
        )}
        {editing ? (
          <MeetingForm
            seriesId={meeting.series.id}
            meeting={meeting}
            onCancel={() => setEditing(false)}
            onDone={() => {
              setEditing(false);
              meetings.reload();
            }}
          />
        ) : (
          open && (
            <div className={row}>
              {/* An in-progress meeting may still lack its chat (a meeting started by its time, not by a leader). */}
              {meeting.conversation === null && (
                <button
                  type="button"
                  className={button}
                  disabled={busy !== null}
                  onClick={() => void act('start')}
                >
                  {busy === 'start' ? T.starting : T.startChat}
                </button>
              )}
              {isMeetingInProgress(meeting) && meeting.conversation !== null && (
                <button
                  type="button"
                  className={button}
                  disabled={busy !== null}
                  onClick={() => setAsking('end')}
                >
                  {busy === 'end' ? T.ending : T.endChat}
                </button>
              )}
              <button
                type="button"
                className={`${button} ${secondaryButton}`}
                onClick={() => setEditing(true)}
              >
                {T.edit}
              </button>
              {isMeetingNotStarted(meeting) && (
                <button
                  type="button"
                  className={`${button} ${dangerButton}`}
                  disabled={busy !== null}
                  onClick={() => setAsking('cancel')}
                >
                  {T.cancelMeeting}
                </button>
              )}
            </div>
          )
        )}
        {failure && (
          <p className={errorText} role="alert">
            {failure}
          </p>
        )}
      </div>
      <div className={columns}>
        <div className={stack}>
          <GroupChat meeting={meeting} />
          <PrivateMessages meetingId={meeting.id} />
        </div>
        <div className={stack}>
          <Participants seriesId={meeting.series.id} meetingId={meeting.id} />
          <Appendices meetingId={meeting.id} />
        </div>
      </div>
      <StaffConfirmDialog
        open={asking !== null}
        title={T.confirm.title}
        text={asking === 'cancel' ? T.cancelConfirm : T.endConfirm}
        yes={T.confirm.yes}
        no={T.confirm.no}
        onAnswer={(yes) => {
          const action = asking;
          setAsking(null);
          if (yes && action) void act(action);
        }}
      />
    </section>
  );
}
