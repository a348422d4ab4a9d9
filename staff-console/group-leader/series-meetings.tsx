import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { button, card, errorText, mutedText, noticeText, secondaryButton } from '../ui/styles.ts';
import { columns, listItem, plainList, row, screen, stack, linkButton } from './group-leader.styles.ts';
import { formatDateAndClockTime } from '../../client-kit/time/format-time.ts';
import { MeetingBadge } from './meeting-badge.tsx';
import { MeetingForm } from './meeting-form.tsx';
import { meetingSections } from './meeting-sections.ts';
import { Participants } from './participants.tsx';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { LedSeries, Meeting, ValueList } from './types.ts';
import { meetingPath } from './paths.ts';
import { useStaffGet } from '../api/use-staff-get.ts';
import { useFocusOnMount } from './use-focus-on-mount.ts';
import { useMeetings } from './use-meetings.ts';

/** One series: its meetings (in progress, upcoming, finished), a new meeting, and its participants. */
export function SeriesMeetings({ seriesId }: { seriesId: number }) {
  const [, navigate] = useLocation();
  const allSeries = useStaffGet<ValueList<LedSeries>>('/series');
  const series = allSeries.data?.value.find((s) => s.id === seriesId);
  const meetings = useMeetings();
  const [creating, setCreating] = useState(false);
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const own = meetings.data?.value.filter((m) => m.series.id === seriesId) ?? [];
  const sections = meetingSections(own);

  const section = (key: keyof typeof sections, list: Meeting[]) => (
    <section aria-labelledby={`gl-section-${key}`} className={stack}>
      <h3 id={`gl-section-${key}`}>{T.sections[key]}</h3>
      {list.length === 0 ? (
        <p className={mutedText} style={{ margin: 0 }}>
          {T.noMeetingsInSection}
        </p>
      ) : (
        <ul className={plainList}>
          {list.map((m) => (
            <li key={m.id} className={listItem}>
              <div>
                <strong>{m.subject}</strong>
                <br />
                <span className={mutedText}>
                  {T.startLabel}: {formatDateAndClockTime(m.startDate)}
                </span>{' '}
                <MeetingBadge state={m.state} />
              </div>
              <Link
                href={meetingPath(seriesId, m.id)}
                className={`${button} ${secondaryButton} ${linkButton}`}
              >
                {T.open}
                <span className="visually-hidden"> {m.subject}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );

  return (
    <section className={screen} aria-labelledby="gl-series-title">
      <div className={row}>
        <Link href="/" className={`${button} ${secondaryButton} ${linkButton}`}>
          {T.backToGroups}
        </Link>
      </div>
      <div>
        <h1 id="gl-series-title" ref={heading} tabIndex={-1}>
          {series?.groupName ?? (allSeries.data ? T.seriesNotFound : T.loading)}
        </h1>
        {series && (
          <p className={mutedText} style={{ margin: 0 }}>
            {series.subject}
          </p>
        )}
        {allSeries.error && (
          <p className={errorText} role="alert">
            {allSeries.error}
          </p>
        )}
      </div>
      <div className={columns}>
        <div className={stack}>
          <div className={`${card} ${stack}`}>
            <div className={row} style={{ justifyContent: 'space-between' }}>
              <h2>{T.meetingsHeading}</h2>
              {!creating && (
                <button type="button" className={button} onClick={() => setCreating(true)}>
                  {T.newMeeting}
                </button>
              )}
            </div>
            {creating && (
              <MeetingForm
                seriesId={seriesId}
                onCancel={() => setCreating(false)}
                onDone={(m) => {
                  setCreating(false);
                  meetings.reload();
                  navigate(meetingPath(seriesId, m.id));
                }}
              />
            )}
            {meetings.error && (
              <p className={errorText} role="alert">
                {meetings.error}
              </p>
            )}
            {!meetings.data && meetings.loading ? (
              <Spinner label={T.loading} />
            ) : (
              <>
                {section('inProgress', sections.inProgress)}
                {section('upcoming', sections.upcoming)}
                {section('finished', sections.finished)}
              </>
            )}
          </div>
        </div>
        <div className={stack}>
          <Participants seriesId={seriesId} meetingId={null} canAdd />
          <p className={noticeText}>{T.participants.presenceNote}</p>
        </div>
      </div>
    </section>
  );
}
