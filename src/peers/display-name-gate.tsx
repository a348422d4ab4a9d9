import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { DISPLAY_NAME_MAX_LENGTH } from '../../contract/limits.ts';
import { useApi } from '../data/index.ts';
import { useProfile } from '../data/live-queries.ts';
import { lengthError } from '../writing/length-error.ts';
import { field, fieldError, primaryButton } from '../styles/controls.ts';
import { PEER_TEXTS as T } from './texts.ts';
import * as s from './peers.styles.ts';

interface Values {
  name: string;
}

/**
 * What others will see before anything is written to them: until the child has chosen a name,
 * the form to write a post or a reply gives way to one that asks for it. A username is never shown
 * to others (the server refuses it as a name too).
 */
export function DisplayNameGate({ children }: { children: ReactNode }) {
  const profile = useProfile();
  if (!profile) return null;
  if (profile.username.trim() !== '') return children;
  return <DisplayNameForm />;
}

function DisplayNameForm() {
  const api = useApi();
  const ids = { heading: useId(), intro: useId(), name: useId(), error: useId() };
  const [refusal, setRefusal] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values>({
    mode: 'onTouched',
    defaultValues: { name: '' },
  });
  const { errors, isSubmitting } = formState;
  const onSubmit = async ({ name }: Values) => {
    setRefusal(null);
    const result = await api.setDisplayName(name.trim()).catch(() => null);
    if (result?.ok) return; // The profile changes, and the gate opens on its own.
    setRefusal(T.nameErrors[result && !result.ok ? result.code : 'failed']);
  };
  const error = errors.name?.message ?? refusal;
  return (
    <form
      className={s.form}
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      noValidate
      aria-labelledby={ids.heading}
      aria-describedby={ids.intro}
    >
      <h2 id={ids.heading}>{T.nameHeading}</h2>
      <p id={ids.intro}>{T.nameIntro}</p>
      <div className={field}>
        <label htmlFor={ids.name}>{T.nameLabel}</label>
        <input
          id={ids.name}
          type="text"
          autoComplete="off"
          maxLength={DISPLAY_NAME_MAX_LENGTH * 2}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          {...register('name', {
            validate: (v) =>
              lengthError(v, DISPLAY_NAME_MAX_LENGTH, { required: T.nameRequired, tooLong: T.nameTooLong }) ??
              true,
          })}
        />
        {error && (
          <p id={ids.error} className={fieldError} role="alert">
            {error}
          </p>
        )}
      </div>
      <div className={s.actions}>
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? T.nameSaving : T.nameSave}
        </button>
      </div>
    </form>
  );
}
