import { describe, expect, it } from 'vitest';
import { API_ERRORS, isApiErrorCode } from '../../contract/errors.ts';
import { apiErrorBodyOf } from '../../client-kit/http/api-error-body.ts';
import { registerFailure } from '../../src/create-account/register-failure.ts';
import { loginFailureText } from '../../src/login/login-failure.ts';
import { PEER_TEXTS } from '../../src/peers/texts.ts';
import { changePasswordFeedback } from '../../src/settings/change-password-feedback.ts';
import { CHANGE_PASSWORD_ERRORS, DISPLAY_NAME_ERRORS, REGISTER_ERRORS } from '../../worker/base/account.ts';
import { failure } from '../../worker/base/result.ts';
import { LOGIN_ERRORS } from '../../worker/base/session.ts';

/** Swedish for the screen: words, no code, no English placeholder. */
const SWEDISH_SENTENCE = /^[A-ZÅÄÖ][^_]*[.!?]$/u;

// Every code a form's command can answer, and what the form then shows. The tables behind them are
// keyed by the same unions (`satisfies Record<RegisterError, string>`), so a missing text is a
// compile error first; this names the code if a text is empty or is not a sentence.
const FORMS = {
  'create account': [REGISTER_ERRORS, (code) => registerFailure(code).message],
  'change password': [CHANGE_PASSWORD_ERRORS, (code) => changePasswordFeedback(failure(code)).message],
  'log in': [LOGIN_ERRORS, (code) => loginFailureText(failure(code))],
  'choose a name (Peers)': [DISPLAY_NAME_ERRORS, (code) => PEER_TEXTS.nameErrors[code]],
} as const satisfies Record<string, readonly [readonly string[], (code: never) => string | null]>;

describe('every error a form can receive', () => {
  for (const [form, [codes, textOf]] of Object.entries(FORMS)) {
    it(`has a Swedish sentence on the form: ${form}`, () => {
      const missing = codes.filter(
        (code) => !SWEDISH_SENTENCE.test((textOf as (c: string) => string | null)(code) ?? ''),
      );
      expect(missing, `codes of '${form}' without a Swedish sentence`).toEqual([]);
    });
  }

  it('passes the server’s own words on where the server has them', () => {
    expect(registerFailure('common_password').message).toBe(API_ERRORS.common_password.message);
    expect(registerFailure('name_not_allowed').message).toBe(API_ERRORS.name_not_allowed.message);
    expect(changePasswordFeedback(failure('weak_password')).message).toBe(API_ERRORS.weak_password.message);
  });
});

describe('the API’s error codes', () => {
  it('each have an error status and a Swedish sentence', () => {
    const wrong = Object.entries(API_ERRORS).filter(
      ([, { status, message }]) => status < 400 || status > 599 || !SWEDISH_SENTENCE.test(message),
    );
    expect(wrong.map(([code]) => code)).toEqual([]);
  });

  it('are the only codes a client reads from an error body', () => {
    expect(apiErrorBodyOf({ error: 'common_password', message: 'x' })).toEqual({
      error: 'common_password',
      message: 'x',
    });
    // A code this client does not know (a newer server, or no server of ours) is not one it compares.
    expect(apiErrorBodyOf({ error: 'commn_password', message: 'x' })).toBeNull();
    expect(isApiErrorCode('toString')).toBe(false);
    expect(isApiErrorCode('unavailable')).toBe(true);
  });
});
