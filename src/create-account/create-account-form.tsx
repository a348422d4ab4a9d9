import { useId, useState } from 'react';
import { FormSubmit } from '../login/form-submit.tsx';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from '../../contract/limits.ts';
import { useConfig } from '../config/runtime-config.tsx';
import { useApi } from '../data/index.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { clearClientStorage } from '../login/clear-client-storage.ts';
import { fieldError } from '../styles/controls.ts';
import { birthYears } from './birth-years.ts';
import { FormField } from './form-field.tsx';
import { registerFailure } from './register-failure.ts';
import { CREATE_ACCOUNT_TEXTS as T } from './texts.ts';
import { useUsernameAvailability } from './use-username-availability.ts';
import * as s from './create-account.styles.ts';
import { GENDERS, type Gender } from '../../contract/profile.ts';

interface Values {
  username: string;
  password: string;
  repeatPassword: string;
  birthYear: string;
  gender: Gender | '';
  consent: boolean;
}

const normalised = (username: string) => username.trim().toLowerCase();

function usernameError(value: string): string | true {
  const name = normalised(value);
  if (!name) return T.required;
  if (name.length < 3 || name.length > 30) return T.usernameLength;
  return USERNAME_PATTERN.test(name) || T.usernameCharacters;
}

/** The registration form: availability check, password twice, birth year, gender and consent. */
export function CreateAccountForm() {
  const api = useApi();
  const config = useConfig();
  const [, navigate] = useLocation();
  const [failure, setFailure] = useState<string | null>(null);
  const ids = {
    username: useId(),
    password: useId(),
    repeatPassword: useId(),
    birthYear: useId(),
    gender: useId(),
    consent: useId(),
    failure: useId(),
  };
  const { register, handleSubmit, watch, setError, formState } = useForm<Values>({
    mode: 'onTouched',
    defaultValues: {
      username: '',
      password: '',
      repeatPassword: '',
      birthYear: '',
      gender: '',
      consent: false,
    },
  });
  const { errors, isSubmitting } = formState;
  const typed = watch('username');
  const availability = useUsernameAvailability(usernameError(typed) === true ? normalised(typed) : null);
  const years = birthYears();

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    if (availability === 'taken') {
      setError('username', { message: T.usernameTaken }, { shouldFocus: true });
      return;
    }
    // SPEC §4: a login starts from clean storage, and a registration ends in a login.
    clearClientStorage();
    const { propertyIds } = config;
    try {
      const result = await api.register({
        username: normalised(values.username),
        password: values.password,
        properties: {
          [propertyIds.birthYear]: values.birthYear,
          [propertyIds.gender]: values.gender,
          [propertyIds.consentDate]: new Date().toISOString(),
        },
      });
      if (result.ok) {
        showToast(T.created, { kind: 'success' });
        navigate('/start');
      } else {
        const refused = registerFailure(result.code);
        if (refused.field) setError(refused.field, { message: refused.message }, { shouldFocus: true });
        else setFailure(refused.message);
      }
    } catch (error) {
      console.error('Registration failed', error);
      setFailure(T.errors.failed);
    }
  });

  const describedBy = (...parts: (string | false | undefined)[]) =>
    parts.filter(Boolean).join(' ') || undefined;
  const errorOf = (name: keyof Values) =>
    errors[name] && (
      <p id={`${ids[name]}-error`} className={fieldError} role="alert">
        {errors[name].message}
      </p>
    );

  return (
    <form className={s.form} onSubmit={(e) => void submit(e)} noValidate aria-label={T.formLabel}>
      <FormField
        id={ids.username}
        label={T.username}
        hint={T.usernameHint}
        error={errors.username}
        invalid={availability === 'taken'}
        statusId={`${ids.username}-status`}
        after={
          <p
            id={`${ids.username}-status`}
            className={
              availability === 'taken' ? fieldError : availability === 'available' ? s.available : s.hint
            }
            aria-live="polite"
          >
            {!errors.username && availability === 'checking' && T.usernameChecking}
            {!errors.username && availability === 'available' && T.usernameAvailable}
            {!errors.username && availability === 'taken' && T.usernameTaken}
          </p>
        }
      >
        {(control) => (
          <input
            {...control}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            {...register('username', { validate: usernameError })}
          />
        )}
      </FormField>

      <FormField id={ids.password} label={T.password} hint={T.passwordHint} error={errors.password}>
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="new-password"
            {...register('password', {
              validate: (v) => (v ? v.length >= MIN_PASSWORD_LENGTH || T.passwordTooShort : T.required),
            })}
          />
        )}
      </FormField>

      <FormField id={ids.repeatPassword} label={T.repeatPassword} error={errors.repeatPassword}>
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="new-password"
            {...register('repeatPassword', {
              validate: (v, all) => (v ? v === all.password || T.passwordsDiffer : T.required),
            })}
          />
        )}
      </FormField>

      <FormField id={ids.birthYear} label={T.birthYear} error={errors.birthYear}>
        {(control) => (
          <select {...control} {...register('birthYear', { validate: (v) => v !== '' || T.required })}>
            <option value="">{T.birthYearChoose}</option>
            {years.map((year) => (
              <option key={year} value={String(year)}>
                {year}
              </option>
            ))}
          </select>
        )}
      </FormField>

      <fieldset
        className={s.choices}
        role="radiogroup"
        aria-required="true"
        aria-describedby={describedBy(errors.gender && `${ids.gender}-error`)}
      >
        <legend>{T.gender}</legend>
        {GENDERS.map((gender) => (
          <label key={gender}>
            <input
              type="radio"
              value={gender}
              aria-invalid={errors.gender ? true : undefined}
              {...register('gender', { validate: (v) => v !== '' || T.required })}
            />
            {T.genders[gender]}
          </label>
        ))}
        {errorOf('gender')}
      </fieldset>

      <div className={s.consentRow}>
        <label className={s.consent}>
          <input
            id={ids.consent}
            type="checkbox"
            aria-required="true"
            aria-invalid={errors.consent ? true : undefined}
            aria-describedby={describedBy(errors.consent && `${ids.consent}-error`)}
            {...register('consent', { validate: (v) => v || T.consentRequired })}
          />
          <span>{T.consent}</span>
        </label>
        {errorOf('consent')}
      </div>

      <FormSubmit
        failure={failure}
        failureId={ids.failure}
        busy={isSubmitting}
        label={T.submit}
        busyLabel={T.submitting}
      />
    </form>
  );
}
