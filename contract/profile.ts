import type { ChangePasswordBody } from './schemas/profile.ts';

/** SPEC §7 Profile and account. */
export interface ContactInfo {
  name: string;
  id: number;
  /** Property id to value; ids come from the runtime config's propertyIds. */
  properties: Record<string, string>;
  createdDate: string;
}

/** GET {api}/features/contacts/{featureId}/detail */
export interface ContactDetailResponse {
  info: { contact: ContactInfo };
}

/** The gender property's values (SPEC §3: female, male, non-binary, else 'x' for 'Vill inte välja'). */
export const GENDERS = ['female', 'male', 'non-binary', 'x'] as const;
export type Gender = (typeof GENDERS)[number];

/** A birth year is accepted within this many years back (the registration offers 6 to 30). */
export const OLDEST_BIRTH_YEAR_BACK = 120;

/** POST {api}/features/contacts/{featureId}/update */
export interface ContactUpdateRequest {
  name?: string;
  properties?: Record<string, string>;
}

/** GET {api}/accounts */
export interface AccountResponse {
  id: number;
  username: string | null;
  contactId: number;
  roles: string[];
  createdDate: string;
}

/** POST {api}/api/accounts/registercontact (201) */
export interface RegisterContactResponse {
  id: number;
  /** As stored: trimmed and lower case. */
  username: string;
  /** The new account's device token for the app that registered (docs/security.md, "Login limits"). */
  deviceToken: string;
}

/** POST {api}/api/accounts/changePassword */
export type ChangePasswordRequest = ChangePasswordBody;

/** POST {api}/api/accounts/verifyusername (public) */
export interface VerifyUsernameRequest {
  username: string;
  token?: string;
}
export interface VerifyUsernameResponse {
  available: boolean;
}

/** GET {api}/features/contacts/{featureId}/contactname?contactId= */
export interface ContactNameResponse {
  name: string;
}

/** The three feature ids of SPEC §7 Profile, one per variant family. */
export const CONTACTS_FEATURE_IDS = {
  main: 'contactsapplicationfeature-id',
  gruppstod: 'meetingcontactsapplicationfeature-id',
  chatt: 'chattcontactsapplicationfeature-id',
} as const;

/** SPEC §3 author label: the gender's word; unknown genders read as 'x'. */
export const USER_AUTHOR_GENDER_LABELS: Readonly<Record<Gender, string>> = {
  female: 'Tjej',
  male: 'Kille',
  'non-binary': 'Icke-binär',
  x: 'Vill inte välja',
};

/** SPEC §3: a gender property's value as a conversation gender (female, male, non-binary, else 'x'). */
export function conversationGender(value: string | undefined): Gender {
  return (GENDERS as readonly string[]).includes(value ?? '') ? (value as Gender) : 'x';
}

/** SPEC §3: age = current year minus birth year; 0 when the birth year is unknown. */
export function ageFromBirthYear(birthYear: string | number | undefined, now = new Date()): number {
  const year = Number(birthYear);
  if (!Number.isInteger(year) || year <= 1900 || year > now.getFullYear()) return 0;
  return now.getFullYear() - year;
}

/**
 * SPEC §3 author label of a child's own messages: 'Tjej', 'Kille', 'Icke-binär' or 'Vill inte välja',
 * followed by ', {age} år' when the age is known (from the birth year, or an age already worked out).
 */
export function userAuthorLabel(gender: string | undefined, age: number): string {
  const word = USER_AUTHOR_GENDER_LABELS[conversationGender(gender)];
  return age > 0 ? `${word}, ${age} år` : word;
}
