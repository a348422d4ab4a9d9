import type { ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { field, fieldError } from '../styles/controls.ts';
import * as s from './create-account.styles.ts';

/** What a field's control needs to be named, described and marked invalid for screen readers. */
export interface ControlProps {
  id: string;
  'aria-required': 'true';
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled, required field with its hint and its error, read out with the control. The error's id
 * is `${id}-error` and the hint's `${id}-hint`; `statusId` names one more note that `after` renders.
 */
export function FormField({
  id,
  label,
  hint,
  error,
  invalid = false,
  statusId,
  after,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error: FieldError | undefined;
  /** Invalid for another reason than the form's error (the username is taken). */
  invalid?: boolean;
  statusId?: string;
  after?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}) {
  const describedBy =
    [hint && `${id}-hint`, statusId, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={field}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-required': 'true',
        'aria-invalid': error || invalid ? true : undefined,
        'aria-describedby': describedBy,
      })}
      {hint && (
        <p id={`${id}-hint`} className={s.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={fieldError} role="alert">
          {error.message}
        </p>
      )}
      {after}
    </div>
  );
}
