import type { RuntimeConfig } from '../../contract/config.ts';
import { USER_AUTHOR_GENDER_LABELS, type Gender } from '../../contract/profile.ts';
import { COUNSELLOR_TEXTS as T } from './texts.ts';

export interface ChildPropertyRow {
  label: string;
  value: string;
}

/**
 * The child's conversation properties as the console shows them: age, gender, device (SPEC §3
 * Conversation properties). The property ids come from /config.json; a missing value is 'Okänt'.
 * The age is the stored one, else derived from the birth year.
 */
export function childPropertyRows(
  properties: Record<string, string> | undefined,
  ids: RuntimeConfig['propertyIds'],
  now = new Date(),
): ChildPropertyRow[] {
  const p = properties ?? {};
  const age = childAge(p, ids, now);
  const gender = p[ids.gender];
  return [
    { label: T.age, value: age ? T.ageValue(String(age)) : T.unknown },
    {
      label: T.gender,
      value: gender ? (USER_AUTHOR_GENDER_LABELS[gender as Gender] ?? gender) : T.unknown,
    },
    { label: T.device, value: p[ids.device] || T.unknown },
  ];
}

/** The stored age, else the one derived from the birth year; 0 when neither is known. */
function childAge(p: Record<string, string>, ids: RuntimeConfig['propertyIds'], now: Date): number {
  const stored = Number(p[ids.age]);
  if (Number.isInteger(stored) && stored > 0) return stored;
  const birthYear = Number(p[ids.birthYear]);
  return Number.isInteger(birthYear) && birthYear > 1900 ? now.getFullYear() - birthYear : 0;
}
