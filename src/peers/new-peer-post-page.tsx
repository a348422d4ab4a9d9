import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { PEER_POST_SUBJECT_MAX_LENGTH, PEER_POST_TEXT_MAX_LENGTH } from '../../contract/limits.ts';
import { useApi } from '../data/index.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { lengthError } from '../mail/mail-limits.ts';
import { PageLayout } from '../shell/page-layout.tsx';
import { field, fieldError, primaryButton } from '../styles/controls.ts';
import { DisplayNameGate } from './display-name-gate.tsx';
import { PeerTextField } from './peer-text-field.tsx';
import { PEER_TEXTS as T } from './texts.ts';
import * as s from './peers.styles.ts';

interface Values {
  subject: string;
  text: string;
}

/** Route '/mina-sidor/nytt-inlagg' in Peers: a post for other young people, read by a counsellor first. */
export function NewPeerPostPage() {
  const api = useApi();
  const [, navigate] = useLocation();
  const ids = { subject: useId(), subjectError: useId() };
  const [failed, setFailed] = useState(false);
  const { register, handleSubmit, watch, formState } = useForm<Values>({
    mode: 'onTouched',
    defaultValues: { subject: '', text: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = async ({ subject, text }: Values) => {
    setFailed(false);
    const answer = await api.writePeerPost(subject.trim(), text.trim()).catch(() => null);
    const result = answer?.ok ? answer.value : null;
    if (result?.status === 'sent') {
      showToast(T.sent, { kind: 'success' });
      // Replace: going back from the post leads to my pages, not to an emptied form.
      navigate(`/mina-sidor/inlagg/${result.id}`, { replace: true });
    } else if (result?.status === 'queued' || result?.status === 'waiting') {
      showToast(result.status === 'queued' ? T.queued : (result.message ?? T.waiting));
      navigate('/mina-sidor', { replace: true });
    } else setFailed(true);
  };

  return (
    <PageLayout title={T.newPostHeading} backButton>
      <h1>{T.newPostHeading}</h1>
      <p>{T.newPostIntro}</p>
      <DisplayNameGate>
        <form
          className={s.form}
          onSubmit={(e) => void handleSubmit(onSubmit)(e)}
          noValidate
          aria-label={T.newPostHeading}
        >
          <div className={field}>
            <label htmlFor={ids.subject}>{T.subject}</label>
            <input
              id={ids.subject}
              type="text"
              autoComplete="off"
              aria-invalid={errors.subject ? true : undefined}
              aria-describedby={errors.subject ? ids.subjectError : undefined}
              {...register('subject', {
                validate: (v) =>
                  lengthError(v, PEER_POST_SUBJECT_MAX_LENGTH, {
                    required: T.subjectRequired,
                    tooLong: T.subjectTooLong,
                  }) ?? true,
              })}
            />
            {errors.subject && (
              <p id={ids.subjectError} className={fieldError} role="alert">
                {errors.subject.message}
              </p>
            )}
          </div>
          <PeerTextField
            label={T.text}
            registration={register('text', {
              validate: (v) =>
                lengthError(v, PEER_POST_TEXT_MAX_LENGTH, {
                  required: T.textRequired,
                  tooLong: T.textTooLong,
                }) ?? true,
            })}
            error={errors.text}
            counter={T.postCounter(watch('text').length)}
          />
          {failed && (
            <p className={fieldError} role="alert">
              {T.sendFailed}
            </p>
          )}
          <div className={s.actions}>
            <button type="submit" className={primaryButton} disabled={isSubmitting}>
              {isSubmitting ? T.sending : T.send}
            </button>
          </div>
        </form>
      </DisplayNameGate>
    </PageLayout>
  );
}
