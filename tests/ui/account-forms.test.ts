import { describe, expect, it } from 'vitest';
import { registerFailure } from '../../src/create-account/register-failure.ts';
import { loginFailureText } from '../../src/login/login-failure.ts';
import { changePasswordFeedback } from '../../src/settings/change-password-feedback.ts';
import { failure } from '../../worker/base/result.ts';

const COMMON = 'Lösenordet är för vanligt och lätt att gissa. Välj ett annat.';

describe('a refused registration', () => {
  it("tells a common password beside the password field in the server's words", () => {
    expect(registerFailure('common_password')).toEqual({ field: 'password', message: COMMON });
  });

  it('tells a name that looks like a staff title, or a taken one, beside the username field', () => {
    expect(registerFailure('name_not_allowed')).toEqual({
      field: 'username',
      message: 'Namnet går inte att använda. Välj ett annat.',
    });
    expect(registerFailure('username_taken')).toEqual({
      field: 'username',
      message: 'Användarnamnet är upptaget. Välj ett annat.',
    });
  });

  it('tells anything else under the form', () => {
    expect(registerFailure('too_many_attempts')).toEqual({
      field: null,
      message: 'För många försök. Vänta en stund och försök igen.',
    });
    expect(registerFailure('invalid').field).toBeNull();
  });
});

describe('changing the password', () => {
  it('tells a common new password beside the new-password field', () => {
    expect(changePasswordFeedback(failure('common_password'))).toEqual({
      kind: 'field',
      field: 'newPassword',
      message: COMMON,
    });
    expect(changePasswordFeedback(failure('wrong_password'))).toMatchObject({
      kind: 'field',
      field: 'currentPassword',
    });
  });

  it('asks to wait after too many tries of the current password', () => {
    expect(changePasswordFeedback(failure('too_many_attempts'))).toEqual({
      kind: 'failure',
      message: 'För många försök. Vänta en stund och försök igen.',
    });
  });

  it('confirms the change, and says so also when this device had to be signed out', () => {
    expect(changePasswordFeedback({ ok: true, value: undefined })).toEqual({
      kind: 'toast',
      message: 'Ditt lösenord är bytt.',
      success: true,
    });
    expect(changePasswordFeedback(failure('signed_out'))).toEqual({
      kind: 'toast',
      message: 'Ditt lösenord är bytt. Logga in igen med ditt nya lösenord.',
      success: false,
    });
  });
});

describe('a failed login', () => {
  it('says that there is no connection when the login got no answer', () => {
    expect(loginFailureText(failure('offline'))).toBe(
      'Det gick inte att nå servern. Kontrollera internetuppkopplingen och försök igen.',
    );
  });

  it('tells wrong credentials, and anything else in the general words of SPEC §8', () => {
    expect(loginFailureText(failure('invalid_username_or_password'))).toBe(
      'Fel användarnamn eller lösenord.',
    );
    expect(loginFailureText(failure('failed'))).toBe('Något blev fel. Försök igen.');
    expect(loginFailureText({ ok: true, value: undefined })).toBeNull();
  });

  it('asks to wait, not the general error, when the server says there were too many attempts (429)', () => {
    expect(loginFailureText(failure('too_many_attempts'))).toBe(
      'För många försök. Vänta en stund och försök igen.',
    );
  });
});
