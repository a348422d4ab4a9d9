import { CountedTextField } from './counted-text-field.tsx';
import { lengthRules } from './length-error.ts';
import { SubjectField } from './subject-field.tsx';
import {
  useNewWriting,
  type NewWritingTexts,
  type NewWritingValues,
  type WriteOutcome,
} from './use-new-writing.ts';
import { WritingForm } from './writing-form.tsx';
import * as s from './writing.styles.ts';

/** The Swedish texts of a new piece of writing: the screen's own, from its texts.ts. */
export interface NewWritingFormTexts extends NewWritingTexts {
  /** The form's name for a screen reader (the page's heading). */
  heading: string;
  subject: string;
  subjectRequired: string;
  subjectTooLong: string;
  text: string;
  textRequired: string;
  textTooLong: string;
  counter: (count: number) => string;
  send: string;
  sending: string;
  sendFailed: string;
}

/**
 * A new piece of writing with a subject and a text (a new mail, a new Peers post): the two fields
 * with their limits and counter, the send button, and what follows the worker's answer
 * (useNewWriting).
 */
export function NewWritingForm<R extends WriteOutcome>({
  send,
  sentPath,
  texts,
  limits,
}: {
  send: (values: NewWritingValues) => Promise<{ ok: true; value: R } | { ok: false } | null>;
  sentPath: (sent: Extract<R, { status: 'sent' }>) => string;
  texts: NewWritingFormTexts;
  limits: { subject: number; text: number };
}) {
  const { form, failed, submit } = useNewWriting({ send, sentPath, texts });
  const { register, watch, formState } = form;
  const { errors, isSubmitting } = formState;
  return (
    <WritingForm
      label={texts.heading}
      onSubmit={(e) => void submit(e)}
      failed={failed ? texts.sendFailed : null}
      submitting={isSubmitting}
      texts={texts}
    >
      <SubjectField
        label={texts.subject}
        registration={register(
          'subject',
          lengthRules(limits.subject, { required: texts.subjectRequired, tooLong: texts.subjectTooLong }),
        )}
        error={errors.subject}
      />
      <CountedTextField
        label={texts.text}
        className={s.textarea}
        registration={register(
          'text',
          lengthRules(limits.text, { required: texts.textRequired, tooLong: texts.textTooLong }),
        )}
        error={errors.text}
        counter={texts.counter(watch('text').length)}
      />
    </WritingForm>
  );
}
