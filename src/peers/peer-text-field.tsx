import { useId } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { fieldError } from '../styles/controls.ts';
import * as s from './peers.styles.ts';

/** A post's or reply's textarea with its character counter and its error, read out with the field. */
export function PeerTextField({
  label,
  registration,
  error,
  counter,
}: {
  label: string;
  registration: UseFormRegisterReturn;
  error: FieldError | undefined;
  counter: string;
}) {
  const ids = { text: useId(), error: useId(), counter: useId() };
  return (
    <>
      <label htmlFor={ids.text}>
        <strong>{label}</strong>
      </label>
      <textarea
        id={ids.text}
        className={s.textarea}
        aria-invalid={error ? true : undefined}
        aria-describedby={[ids.counter, error ? ids.error : ''].join(' ').trim()}
        {...registration}
      />
      <p id={ids.counter} className={s.counter}>
        {counter}
      </p>
      {error && (
        <p id={ids.error} className={fieldError} role="alert">
          {error.message}
        </p>
      )}
    </>
  );
}
