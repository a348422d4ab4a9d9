import { useId } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { field, fieldError } from '../styles/controls.ts';

/** A subject line with its error read out with it: a new mail, a new Peers post. */
export function SubjectField({
  label,
  registration,
  error,
}: {
  label: string;
  registration: UseFormRegisterReturn;
  error: FieldError | undefined;
}) {
  const ids = { subject: useId(), error: useId() };
  return (
    <div className={field}>
      <label htmlFor={ids.subject}>{label}</label>
      <input
        id={ids.subject}
        type="text"
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? ids.error : undefined}
        {...registration}
      />
      {error && (
        <p id={ids.error} className={fieldError} role="alert">
          {error.message}
        </p>
      )}
    </div>
  );
}
