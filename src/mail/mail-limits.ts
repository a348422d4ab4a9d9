/** The server accepts mail text up to 4000 characters; the subject is kept short for the list. */
export const MAIL_TEXT_MAX_LENGTH = 4000;
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
