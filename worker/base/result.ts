/**
 * What every command answers: its value, or a code saying why not. The codes are listed here once,
 * as server/errors.ts lists the API's; their Swedish texts for the screen are in src/errors/texts.ts.
 * The technical detail of a failure goes to the client log, never into a result.
 */
export type Result<T = void, C extends ErrorCode = never> =
  | { ok: true; value: T }
  /** `message`: the server's own Swedish text, where it gave one to show as it is (a 429). */
  | { ok: false; code: C; message?: string };

export const ERROR_CODES = [
  /** No answer: no network, or the server could not be reached. */
  'offline',
  /** Anything else that went wrong; it was logged. */
  'failed',
  'forbidden',
  'not_found',
  /** SPEC §8 login failures. */
  'invalid_username_or_password',
  'too_many_attempts',
  /** Registration: the account exists but the login afterwards did not work. */
  'login_failed',
  'username_taken',
  /** Too common or easy to guess (registration, change password). */
  'common_password',
  /** The username looks like a staff title. */
  'name_not_allowed',
  /** The server refused the form's data otherwise. */
  'invalid',
  'wrong_password',
  'weak_password',
  /** The password was changed, but signing in again with it failed: this device is signed out. */
  'signed_out',
  /** The server asked to wait after too many writes (429); `message` is its text. */
  'rate_limited',
  /** SPEC §8 chat account statuses that stop a new chat. */
  'HasCompletedAConversation',
  'HasActive',
  /** Homework upload refusals (413, 415). */
  'too_large',
  'unsupported_type',
  /** The data worker stopped before it answered, and the command was not safe to send again. */
  'worker_lost',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** What a load answers (SPEC §8): no answer keeps the cache and says 'offline'. */
export type LoadError = 'forbidden' | 'not_found' | 'offline' | 'failed';
export type LoadResult = Result<void, LoadError>;

/** A write the UI shows as a toast or an inline error. */
export type WriteResult = Result<void, 'offline' | 'failed'>;

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
/** The answer of a command that only runs: it cannot fail in a way the UI shows. */
export const done = async (run: Promise<unknown>): Promise<Result> => {
  await run;
  return { ok: true, value: undefined };
};
export const failure = <C extends ErrorCode>(
  code: C,
  message?: string,
): { ok: false; code: C; message?: string } =>
  message === undefined ? { ok: false, code } : { ok: false, code, message };

/** A result as a page keeps it in its state: 'ok', or the code saying why not. */
export const outcomeOf = <C extends ErrorCode>(result: Result<unknown, C>): 'ok' | C =>
  result.ok ? 'ok' : result.code;
export type LoadOutcome = 'ok' | LoadError;

/**
 * What a new piece of writing (a mail, a Peers post or reply) answers once the outbox has it: sent,
 * with what the page needs to open it; queued (offline or the server unreachable: kept in the
 * outbox and sent once, later); or waiting (the server asked to wait after too many writes: sent on
 * its own after the wait, `message` its text).
 */
export type WriteAnswer<Sent extends object> =
  | ({ status: 'sent' } & Sent)
  | { status: 'queued'; clientId: string }
  | { status: 'waiting'; clientId: string; message: string | null };
