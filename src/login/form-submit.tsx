import { primaryButton } from '../styles/controls.ts';
import { failure as failureClass } from './login-form.styles.ts';

export interface FormSubmitProps {
  /** Why the last submit failed, shown as an alert above the button; null when it did not. */
  failure: string | null;
  /** The alert's id, for fields that name it in aria-describedby. */
  failureId?: string;
  busy: boolean;
  label: string;
  busyLabel: string;
  /**
   * Marks the button aria-disabled while the form is invalid: it can still be pressed, so a press
   * marks every field touched and shows what is missing.
   */
  invalid?: boolean;
}

/** The end of the account forms (login, create account, change password): the failure and the button. */
export function FormSubmit({ failure, failureId, busy, label, busyLabel, invalid }: FormSubmitProps) {
  return (
    <>
      {failure && (
        <p id={failureId} className={failureClass} role="alert">
          {failure}
        </p>
      )}
      <button
        type="submit"
        className={primaryButton}
        disabled={busy}
        {...(invalid === undefined ? {} : { 'aria-disabled': invalid || busy })}
      >
        {busy ? busyLabel : label}
      </button>
    </>
  );
}
