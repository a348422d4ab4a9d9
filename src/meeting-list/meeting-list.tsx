import type { MeetingRow } from '../../worker/client/group-support.ts';
import { meetingSections } from '../meeting-ui/meeting-state.ts';
import { useNow } from '../ui-kit/use-now.ts';
import { MeetingCard } from './meeting-card.tsx';
import { list, section } from './meeting-list.styles.ts';
import { MEETING_LIST_TEXTS } from './texts.ts';

/** SPEC §2 Meeting list: three sections, sorted, without duplicates. */
export function MeetingList({ meetings }: { meetings: readonly MeetingRow[] }) {
  const now = useNow();
  const sections = meetingSections(meetings);
  const groups = [
    { key: 'in-progress', title: MEETING_LIST_TEXTS.inProgress, items: sections.inProgress },
    { key: 'upcoming', title: MEETING_LIST_TEXTS.upcoming, items: sections.upcoming },
    { key: 'finished', title: MEETING_LIST_TEXTS.finished, items: sections.finished },
  ].filter((g) => g.items.length > 0);

  if (groups.length === 0) return <p>{MEETING_LIST_TEXTS.empty}</p>;
  return (
    <>
      {groups.map((g) => (
        <section key={g.key} className={section} aria-labelledby={`meetings-${g.key}`}>
          <h3 id={`meetings-${g.key}`}>{g.title}</h3>
          <ul className={list}>
            {g.items.map((m) => (
              <MeetingCard key={m.id} meeting={m} now={now} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
