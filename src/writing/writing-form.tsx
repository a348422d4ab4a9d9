import type { ReactNode } from 'react';
import { fieldError, primaryButton } from '../styles/controls.ts';
import * as s from './writing.styles.ts';

/**
 * A form a child writes in (a new mail, a new Peers post): its fields, the failure said where it is
 * read out, and the send button that says it is sending. The Swedish texts are the caller's.
 */
export function WritingForm({
  label,
  onSubmit,
  failed,
  submitting,
  texts,
  children,
}: {
  label: string;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  /** The failure to show, or null. */
  failed: string | null;
  submitting: boolean;
  texts: { send: string; sending: string };
  children: ReactNode;
}) {
  return (
    <form className={s.form} onSubmit={onSubmit} noValidate aria-label={label}>
      {children}
      {failed && (
        <p className={fieldError} role="alert">
          {failed}
        </p>
      )}
      <div className={s.actions}>
        <button type="submit" className={primaryButton} disabled={submitting}>
          {submitting ? texts.sending : texts.send}
        </button>
      </div>
    </form>
  );
}
