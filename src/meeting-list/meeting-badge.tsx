import { badge, badgeKinds } from '../meeting-ui/meeting.styles.ts';

export type BadgeKind = keyof typeof badgeKinds;

/** A status badge: the text carries the meaning, the colour only repeats it. */
export function MeetingBadge({ text, kind }: { text: string; kind: BadgeKind }) {
  return <span className={`${badge} ${badgeKinds[kind]}`}>{text}</span>;
}

export function badgeKind(text: string): BadgeKind {
  if (text === 'Pågående') return 'progress';
  if (text === 'Kommande') return 'upcoming';
  if (text === 'Chatten börjar strax') return 'soon';
  return 'ended';
}
