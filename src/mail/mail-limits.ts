import { MAIL_MAX_LENGTH } from '../../contract/limits.ts';

/** A mail message is as long as the server takes one; the subject is kept short for the list. */
export const MAIL_TEXT_MAX_LENGTH = MAIL_MAX_LENGTH;
export const MAIL_SUBJECT_MAX_LENGTH = 100;
