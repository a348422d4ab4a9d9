export const BACKOFF_BASE_MS = 1000;
/**
 * A child waits for a message that is stuck: the wait grows to 15 s, no more (measured from outside,
 * a 60 s cap left messages 56 s behind after the server had recovered). The 20 % jitter spreads the
 * retries of many clients, and the network coming back retries at once anyway.
 */
export const BACKOFF_MAX_MS = 15_000;
/** A server's `Retry-After` is followed up to this long; a longer one is taken as a mistake. */
export const RETRY_AFTER_MAX_MS = 3600_000;

/**
 * Wait before retry number `attempts` (1 s, 2 s, 4 s ... at most 15 s) plus up to 20 % jitter, so that
 * many clients coming back online do not retry in step.
 */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return base + Math.floor(base * 0.2 * random());
}

/**
 * The backoff, or longer when the server said how long to wait (`Retry-After` on a 429): trying
 * sooner would only be refused again.
 */
export function retryDelayMs(
  attempts: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
  /** The attempt met a server error while the child looks at the app (see SERVER_ERROR_RETRY_MS). */
  hurried = false,
): number {
  const backoff = backoffMs(attempts, random);
  const wait = hurried ? Math.min(backoff, SERVER_ERROR_RETRY_MS + Math.floor(300 * random())) : backoff;
  return Math.max(wait, Math.min(retryAfterMs ?? 0, RETRY_AFTER_MAX_MS));
}

/** A status that says the server is there but not serving (or a gateway could not reach it). */
export const isServerError = (status: number): boolean => status >= 500 && status < 600;

/**
 * A server error (5xx) is retried this soon while the child looks at the app: told on screen like a
 * line that does not answer, the message must go the moment the server serves again, and the cap of
 * 15 s would leave it up to 15 s behind. A server that needs clients to slow down says so in
 * `Retry-After`, which is always followed.
 */
export const SERVER_ERROR_RETRY_MS = 1500;

/** SPEC-free HTTP sense: a 4xx is the client's fault and will not change on retry, except these. */
export function isFinalStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}
