import { useId } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { fieldError } from '../styles/controls.ts';
import * as s from './writing.styles.ts';

/**
 * A textarea with its character counter and its error, both read out with the field: a mail, a
 * reply, and the Peers posts and replies.
 */
export function CountedTextField({
  label,
  className,
  counterClassName = s.counter,
  registration,
  error,
  counter,
}: {
  label: string;
  className: string;
  counterClassName?: string;
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
        className={className}
        aria-invalid={error ? true : undefined}
        aria-describedby={[ids.counter, error ? ids.error : ''].join(' ').trim()}
        {...registration}
      />
      <p id={ids.counter} className={counterClassName}>
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
