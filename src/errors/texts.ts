import type { ErrorCode } from '../../worker/client/result.ts';

/**
 * The Swedish texts of the worker's result codes (worker/client/result.ts) that read the same on
 * every page, as server/errors.ts holds the API's. A page with a text of its own for a code (the
 * start page's 'Det gick inte att starta chatten') keeps it in its own texts.ts.
 */
export const ERROR_TEXTS = {
  /** A write (or a call) got no answer. */
  offline: 'Det gick inte att nå servern. Kontrollera internetuppkopplingen och försök igen.',
  failed: 'Något blev fel. Försök igen.',
  /** A name (a username, the name others see) that reads as a staff title, or is the username. */
  name_not_allowed: 'Namnet går inte att använda. Välj ett annat.',
} as const satisfies Partial<Record<ErrorCode, string>>;

/**
 * Ours (SPEC is silent): the server answers, but only with server errors (5xx). Told like a line
 * that does not answer (the messages say 'Väntar på nätet'), and without blaming the child's
 * network, which works.
 */
export const SERVICE_NOT_ANSWERING_TEXT =
  'Tjänsten svarar inte just nu. Det du skriver skickas så snart den svarar igen.';

/** A load got no answer: the page shows what it has cached. */
export const OFFLINE_CACHED_TEXT = 'Du verkar vara offline. Det du ser kan vara gammalt.';
