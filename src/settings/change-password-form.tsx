import { useId, useState } from 'react';
import { FormSubmit } from '../login/form-submit.tsx';
import { useForm } from 'react-hook-form';
import { MIN_PASSWORD_LENGTH } from '../../contract/limits.ts';
import { useApi } from '../data/index.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { field, fieldError } from '../styles/controls.ts';
import { changePasswordFeedback } from './change-password-feedback.ts';
import { SETTINGS_TEXTS as T } from './texts.ts';
import * as s from './settings.styles.ts';

interface Values {
  currentPassword: string;
  newPassword: string;
  repeatPassword: string;
}

const EMPTY: Values = { currentPassword: '', newPassword: '', repeatPassword: '' };

/** POST changePassword with the current password; a success toast, errors beside the fields. */
export function ChangePasswordForm() {
  const api = useApi();
  const [failure, setFailure] = useState<string | null>(null);
  const ids = { currentPassword: useId(), newPassword: useId(), repeatPassword: useId() };
  const { register, handleSubmit, setError, reset, formState } = useForm<Values>({
    mode: 'onTouched',
    defaultValues: EMPTY,
  });
  const { errors, isSubmitting } = formState;

  const submit = handleSubmit(async ({ currentPassword, newPassword }) => {
    setFailure(null);
    try {
      const feedback = changePasswordFeedback(await api.changePassword(currentPassword, newPassword));
      if (feedback.kind === 'toast') {
        reset(EMPTY);
        showToast(feedback.message, { kind: feedback.success ? 'success' : 'info' });
      } else if (feedback.kind === 'field') {
        setError(feedback.field, { message: feedback.message }, { shouldFocus: true });
      } else {
        setFailure(feedback.message);
      }
    } catch (error) {
      console.error('Change password failed', error);
      setFailure(T.changePasswordErrors.failed);
    }
  });

  const input = (name: keyof Values, label: string, autoComplete: string, hint?: string) => {
    const error = errors[name]?.message;
    const describedBy = [hint ? `${ids[name]}-hint` : '', error ? `${ids[name]}-error` : ''].join(' ').trim();
    return (
      <div className={field}>
        <label htmlFor={ids[name]}>{label}</label>
        <input
          id={ids[name]}
          type="password"
          autoComplete={autoComplete}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...register(name, {
            validate: (value, all) => {
              if (!value) return T.required;
              if (name === 'newPassword') {
                if (value.length < MIN_PASSWORD_LENGTH) return T.passwordTooShort;
                if (value === all.currentPassword) return T.sameAsCurrent;
              }
              if (name === 'repeatPassword' && value !== all.newPassword) return T.passwordsDiffer;
              return true;
            },
          })}
        />
        {hint && (
          <p id={`${ids[name]}-hint`} className={s.hint}>
            {hint}
          </p>
        )}
        {error && (
          <p id={`${ids[name]}-error`} className={fieldError} role="alert">
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <form className={s.form} onSubmit={(e) => void submit(e)} noValidate aria-label={T.changePassword}>
      {input('currentPassword', T.currentPassword, 'current-password')}
      {input('newPassword', T.newPassword, 'new-password', T.newPasswordHint)}
      {input('repeatPassword', T.repeatPassword, 'new-password')}
      <FormSubmit failure={failure} busy={isSubmitting} label={T.submit} busyLabel={T.submitting} />
    </form>
  );
}
