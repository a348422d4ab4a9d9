import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { PRIVATE_MESSAGE_MAX_LENGTH } from '../../contract/limits.ts';
import { useConfig } from '../config/runtime-config.tsx';
import { useApi } from '../data/index.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { expandable } from '../meeting-ui/meeting.styles.ts';
import { fieldError, primaryButton } from '../styles/controls.ts';
import { textarea } from './meeting-detail.styles.ts';
import { MEETING_DETAIL_TEXTS as T } from './texts.ts';

interface Values {
  text: string;
}

/** SPEC §5 Private message to group leaders: required, max 800, errors once dirty. */
export function PrivateMessageForm({ meetingId }: { meetingId: number }) {
  const api = useApi();
  const config = useConfig();
  const fieldId = useId();
  const errorId = useId();
  const [result, setResult] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<Values>({
    mode: 'onChange',
    defaultValues: { text: '' },
  });
  const { errors, isValid, isSubmitting, dirtyFields } = formState;
  // Dirty as in "changed once": clearing the field again must still show 'Text måste anges'.
  const [wasDirty, setWasDirty] = useState(false);
  if (dirtyFields.text && !wasDirty) setWasDirty(true);
  const error = wasDirty ? errors.text?.message : undefined;

  const onSubmit = async ({ text }: Values) => {
    setResult(null);
    try {
      const outcome = await api.sendPrivateMessage(meetingId, text.trim());
      if (!outcome.ok) throw new Error(outcome.code);
      const said = outcome.value === 'queued' ? T.messageQueued : T.messageSent;
      setResult(said);
      showToast(said, { kind: outcome.value === 'queued' ? 'info' : 'success' });
      reset();
      setWasDirty(false);
    } catch {
      setResult(T.messageFailed);
      showToast(T.messageFailed, { kind: 'error' });
    }
  };

  return (
    <details className={expandable}>
      <summary>
        {T.privateMessageHeading} {config.providerName}
      </summary>
      <form onSubmit={(e) => void handleSubmit(onSubmit)(e)} noValidate>
        <label htmlFor={fieldId}>{T.privateMessageLabel}</label>
        <textarea
          id={fieldId}
          className={textarea}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...register('text', {
            validate: (v) => v.trim().length > 0 || T.textRequired,
            maxLength: { value: PRIVATE_MESSAGE_MAX_LENGTH, message: T.textTooLong },
          })}
        />
        {error && (
          <p id={errorId} className={fieldError} role="alert">
            {error}
          </p>
        )}
        <button type="submit" className={primaryButton} disabled={!isValid || isSubmitting}>
          {isSubmitting ? T.privateMessageSending : T.privateMessageSend}
        </button>
        <p role="status">{result}</p>
      </form>
    </details>
  );
}
