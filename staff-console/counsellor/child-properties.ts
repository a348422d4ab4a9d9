import type { RuntimeConfig } from '../../contract/config.ts';
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
  const birthYear = Number(p[ids.birthYear]);
  const storedAge = p[ids.age];
  const age =
    storedAge && storedAge !== '0'
      ? storedAge
      : Number.isInteger(birthYear) && birthYear > 1900
        ? String(now.getFullYear() - birthYear)
        : null;
  const gender = p[ids.gender];
  return [
    { label: T.age, value: age ? T.ageValue(age) : T.unknown },
    { label: T.gender, value: gender ? (T.genders[gender] ?? gender) : T.unknown },
    { label: T.device, value: p[ids.device] || T.unknown },
  ];
}
