import { HOURS, type CalmTimes } from '../../contract/calm-times.ts';

/** A stretch of one weekday, hours `from` to `to` (exclusive). */
export interface CalmStretch {
  weekday: number;
  from: number;
  to: number;
}

/**
 * The calmest stretch of the week, for 'Oftast kortast väntetid: tisdagar 15-17': the two hours in a
 * row (both with a typical wait) with the shortest mean wait; with no two such hours, the one hour
 * with the shortest. The earliest in the week wins a tie. Null when no hour has a typical wait.
 */
export function calmestStretch(waits: CalmTimes['waits']): CalmStretch | null {
  const pairs: Scored[] = [];
  const singles: Scored[] = [];
  waits.forEach((day, weekday) =>
    day.forEach((wait, hour) => {
      if (wait === null) return;
      singles.push({ score: wait, stretch: { weekday, from: hour, to: hour + 1 } });
      const next = day[hour + 1] ?? null;
      if (next !== null)
        pairs.push({ score: (wait + next) / 2, stretch: { weekday, from: hour, to: hour + 2 } });
    }),
  );
  return lowest(pairs.length > 0 ? pairs : singles);
}

interface Scored {
  score: number;
  stretch: CalmStretch;
}

/** The lowest score's stretch; the first (earliest in the week) of equals. */
function lowest(scored: Scored[]): CalmStretch | null {
  let best: Scored | null = null;
  for (const candidate of scored) if (best === null || candidate.score < best.score) best = candidate;
  return best?.stretch ?? null;
}

/**
 * The hours the table shows: from the earliest to the latest hour of the week that has a typical
 * wait on any day (a channel open 14-22 shows those hours, not 24 rows); none when no hour has one.
 */
export function shownHours(waits: CalmTimes['waits']): number[] {
  let first = HOURS;
  let last = -1;
  for (const day of waits) {
    day.forEach((wait, hour) => {
      if (wait === null) return;
      first = Math.min(first, hour);
      last = Math.max(last, hour);
    });
  }
  return last < 0 ? [] : Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** The longest typical wait of the week (the bars' full length); 0 when there is none. */
export const longestWait = (waits: CalmTimes['waits']): number =>
  Math.max(0, ...waits.flat().filter((w): w is number => w !== null));
