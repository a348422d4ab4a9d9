/** Children and young people: birth years from 6 to 30 years back. */
const YOUNGEST_AGE = 6;
const OLDEST_AGE = 30;

/**
 * The birth years the registration and the settings offer, newest first; `keep` (a year stored
 * before, now outside the range) is offered too, so a saved choice is never lost from the list.
 */
export function birthYears(keep?: string, thisYear = new Date().getFullYear()): number[] {
  const years = Array.from({ length: OLDEST_AGE - YOUNGEST_AGE + 1 }, (_, i) => thisYear - YOUNGEST_AGE - i);
  const kept = Number(keep);
  if (keep && /^\d{4}$/.test(keep) && !years.includes(kept)) years.push(kept);
  return years.sort((a, b) => b - a);
}
