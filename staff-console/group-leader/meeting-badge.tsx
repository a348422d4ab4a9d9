import { badge, badgeKinds } from './group-leader.styles.ts';
import { GROUP_LEADER_TEXTS as T } from './texts.ts';
import type { Meeting } from './types.ts';

export function MeetingBadge({ state }: { state: Meeting['state'] }) {
  return <span className={`${badge} ${badgeKinds[state]}`}>{T.badges[state]}</span>;
}
