import { MAIL_MAX_LENGTH } from '../../contract/limits.ts';

/** A mail message is as long as the server takes one; the subject is kept short for the list. */
export const MAIL_TEXT_MAX_LENGTH = MAIL_MAX_LENGTH;
export const MAIL_SUBJECT_MAX_LENGTH = 100;

/** A field's error text, or null when the trimmed value is fine (SPEC §5 style: required, max). */
export function lengthError(
  value: string,
  max: number,
  texts: { required: string; tooLong: string },
): string | null {
  if (value.trim().length === 0) return texts.required;
  if (value.length > max) return texts.tooLong;
  return null;
}
