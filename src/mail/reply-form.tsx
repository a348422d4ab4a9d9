import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useApi } from '../data/index.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { fieldError, primaryButton } from '../styles/controls.ts';
import { lengthError, MAIL_TEXT_MAX_LENGTH } from './mail-limits.ts';
import { MAIL_TEXTS as T } from './texts.ts';
import * as s from './mail.styles.ts';

interface Values {
  text: string;
}

/** A reply in a mail thread: it shows in the thread at once with its send status (outbox). */
export function ReplyForm({ conversationId }: { conversationId: number }) {
  const api = useApi();
  const ids = { text: useId(), error: useId(), counter: useId() };
  const { register, handleSubmit, watch, reset, formState } = useForm<Values>({
    mode: 'onTouched',
    defaultValues: { text: '' },
  });
  const { errors, isSubmitting } = formState;
  const length = watch('text').length;

  const onSubmit = async ({ text }: Values) => {
    try {
      await api.replyToConversation(conversationId, text.trim());
      reset();
    } catch {
      showToast(T.sendFailed, { kind: 'error' });
    }
  };

  return (
    <form className={s.form} onSubmit={(e) => void handleSubmit(onSubmit)(e)} noValidate aria-label={T.reply}>
      <label htmlFor={ids.text}>
        <strong>{T.replyLabel}</strong>
      </label>
      <textarea
        id={ids.text}
        className={`${s.textarea} ${s.replyTextarea}`}
        aria-invalid={errors.text ? true : undefined}
        aria-describedby={[ids.counter, errors.text ? ids.error : ''].join(' ').trim()}
        {...register('text', {
          validate: (v) =>
            lengthError(v, MAIL_TEXT_MAX_LENGTH, { required: T.textRequired, tooLong: T.textTooLong }) ??
            true,
        })}
      />
      <p id={ids.counter} className={s.counter}>
        {T.counter(length)}
      </p>
      {errors.text && (
        <p id={ids.error} className={fieldError} role="alert">
          {errors.text.message}
        </p>
      )}
      <div className={s.actions}>
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? T.sending : T.replySend}
        </button>
      </div>
    </form>
  );
}
