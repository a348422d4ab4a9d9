import { useForm } from 'react-hook-form';
import { useApi } from '../data/index.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { WritingForm } from '../writing/writing-form.tsx';
import { MailTextField, validateMailText } from './mail-text-field.tsx';
import { MAIL_TEXTS as T } from './texts.ts';
import * as s from './mail.styles.ts';

interface Values {
  text: string;
}

/** A reply in a mail thread: it shows in the thread at once with its send status (outbox). */
export function ReplyForm({ conversationId }: { conversationId: number }) {
  const api = useApi();
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
    <WritingForm
      label={T.reply}
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      failed={null}
      submitting={isSubmitting}
      texts={{ send: T.replySend, sending: T.sending }}
    >
      <MailTextField
        label={T.replyLabel}
        className={`${s.textarea} ${s.replyTextarea}`}
        registration={register('text', { validate: validateMailText })}
        error={errors.text}
        length={length}
      />
    </WritingForm>
  );
}
