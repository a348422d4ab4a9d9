import { useId, useState } from 'react';
import { ForgotPassword } from './forgot-password.tsx';
import { FormSubmit } from './form-submit.tsx';
import { useController, useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle, registerStyle } from '../config/variant.ts';
import { useData, useSession } from '../data/index.ts';
import { field, fieldError } from '../styles/controls.ts';
import { clearClientStorage } from './clear-client-storage.ts';
import { loginFailureText } from './login-failure.ts';
import { LOGIN_TEXTS } from './texts.ts';
import { PERSONAL_CODE_MIN_LENGTH } from '../../contract/limits.ts';
import * as s from './login-form.styles.ts';

interface LoginFields {
  username: string;
  password: string;
  /** Shared-device mode: the session is kept in memory only (worker/client/data-connection.ts). */
  sharedDevice: boolean;
}

export interface LoginFormProps {
  /** Called once the worker reports a successful login. */
  onSuccess?: () => void;
  /** Group style (personal code, no password, no register link); defaults to the variant's style. */
  groupStyle?: boolean;
  hideRegister?: boolean;
}

/** The login form of SPEC §2, used standalone, inline and in the login modal. */
export function LoginForm({ onSuccess, groupStyle, hideRegister }: LoginFormProps) {
  const config = useConfig();
  const { chooseStorage } = useData();
  const { status } = useSession();
  const group = groupStyle ?? isGroupStyle(config);
  const [failure, setFailure] = useState<string | null>(null);
  const ids = { username: useId(), password: useId(), failure: useId(), sharedDevice: useId() };
  const { register, handleSubmit, formState, control, watch } = useForm<LoginFields>({
    mode: 'onTouched',
    defaultValues: { username: '', password: '', sharedDevice: false },
  });
  // Controlled, so the element's name can follow the mode (react-hook-form's register reads it).
  const { field: password } = useController({
    name: 'password',
    control,
    rules: { validate: (value) => group || value.length > 0 || LOGIN_TEXTS.required },
  });
  const shared = watch('sharedDevice');
  const { isValid, isSubmitting, isSubmitted, dirtyFields } = formState;
  // A field's error shows once something was typed in it or a submit was tried: the modal puts the
  // focus in the username, and moving on from it untouched (to the shared-device checkbox, to
  // 'Glömt lösenord?') must not raise 'Måste anges.' and shift the form under the pointer.
  const shown = (name: 'username' | 'password') =>
    dirtyFields[name] || isSubmitted ? formState.errors[name] : undefined;
  const errors = { username: shown('username'), password: shown('password') };

  if (status === 'authenticated' && !isSubmitting) {
    return <p className={s.notice}>{LOGIN_TEXTS.alreadyLoggedIn}</p>;
  }

  const submit = handleSubmit(async ({ username, password, sharedDevice }) => {
    setFailure(null);
    clearClientStorage();
    try {
      const { api } = await chooseStorage(sharedDevice ? 'memory' : 'disk');
      const result = await api.login(username.trim(), group ? null : password);
      const text = loginFailureText(result);
      if (text) setFailure(text);
      else onSuccess?.();
    } catch (error) {
      console.error('Login failed', error);
      setFailure(LOGIN_TEXTS.errors.failed);
    }
  });

  const username = register('username', {
    validate: (value) => {
      const trimmed = value.trim();
      if (!trimmed) return LOGIN_TEXTS.required;
      if (group && trimmed.length < PERSONAL_CODE_MIN_LENGTH) return LOGIN_TEXTS.personalCodeTooShort;
      return true;
    },
  });

  const registerHref = group || hideRegister ? null : `/skapa-konto?style=${registerStyle(config)}`;
  const describedBy = (name: 'username' | 'password') =>
    [errors[name] ? `${ids[name]}-error` : '', failure ? ids.failure : ''].join(' ').trim() || undefined;

  return (
    <form className={s.form} onSubmit={submit} noValidate aria-label={LOGIN_TEXTS.title}>
      {/* First: a choice made before typing, and above the fields whose error texts come and go. */}
      <div className={s.sharedDevice}>
        <input
          id={ids.sharedDevice}
          type="checkbox"
          aria-describedby={`${ids.sharedDevice}-explained`}
          {...register('sharedDevice')}
        />
        <div>
          <label htmlFor={ids.sharedDevice}>{LOGIN_TEXTS.sharedDevice}</label>
          <p id={`${ids.sharedDevice}-explained`}>{LOGIN_TEXTS.sharedDeviceExplained}</p>
        </div>
      </div>
      <div className={field}>
        <label htmlFor={ids.username}>{group ? LOGIN_TEXTS.personalCode : LOGIN_TEXTS.username}</label>
        {/* 'off': the browser keeps no autocomplete entry of the login name (one it would offer in
            other sites' fields and keep in its profile after a logout); password managers still work. */}
        <input
          id={ids.username}
          autoComplete="off"
          placeholder={group ? LOGIN_TEXTS.personalCodePlaceholder + config.providerName : undefined}
          aria-invalid={errors.username ? true : undefined}
          aria-describedby={describedBy('username')}
          aria-required="true"
          {...username}
        />
        {errors.username && (
          <p id={`${ids.username}-error`} className={fieldError} role="alert">
            {errors.username.message}
          </p>
        )}
      </div>
      {!group && (
        <div className={field}>
          <label htmlFor={ids.password}>{LOGIN_TEXTS.password}</label>
          {/* Shared-device mode: a password manager must not offer to save it. Chromium ignores
              'off' on a password and shows its 'save?' bubble at the login, and a bubble left
              unanswered writes the login name and the site into its profile's 'Login Data' (the
              `stats` table) at the next page change. A field marked 'one-time-code' is no password
              to it: no bubble, no row. Named apart too, so what password managers learnt of the
              normal form's field (Chromium's crowd-sourced field types) never applies to it. */}
          <input
            id={ids.password}
            type="password"
            name={shared ? 'shared-device-password' : 'password'}
            autoComplete={shared ? 'one-time-code' : 'current-password'}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={describedBy('password')}
            aria-required="true"
            ref={password.ref}
            value={password.value}
            onChange={password.onChange}
            onBlur={password.onBlur}
          />
          {errors.password && (
            <p id={`${ids.password}-error`} className={fieldError} role="alert">
              {errors.password.message}
            </p>
          )}
        </div>
      )}
      {!group && <ForgotPassword registerHref={registerHref} />}
      <FormSubmit
        failure={failure}
        failureId={ids.failure}
        busy={isSubmitting}
        invalid={!isValid}
        label={LOGIN_TEXTS.submit}
        busyLabel={LOGIN_TEXTS.submitting}
      />
      {registerHref && (
        <p>
          <Link href={registerHref}>{LOGIN_TEXTS.register}</Link>
        </p>
      )}
      <p className={s.note}>{LOGIN_TEXTS.logoutReminder}</p>
    </form>
  );
}
