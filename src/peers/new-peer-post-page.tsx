import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { PEER_POST_SUBJECT_MAX_LENGTH, PEER_POST_TEXT_MAX_LENGTH } from '../../contract/limits.ts';
import { useApi } from '../data/index.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { lengthError } from '../writing/length-error.ts';
import { SubjectField } from '../writing/subject-field.tsx';
import { WritingForm } from '../writing/writing-form.tsx';
import { DisplayNameGate } from './display-name-gate.tsx';
import { PeerTextField } from './peer-text-field.tsx';
import { PEER_TEXTS as T } from './texts.ts';

interface Values {
  subject: string;
  text: string;
}

/** Route '/mina-sidor/nytt-inlagg' in Peers: a post for other young people, read by a counsellor first. */
export function NewPeerPostPage() {
  const api = useApi();
  const [, navigate] = useLocation();
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
        <WritingForm
          label={T.newPostHeading}
          onSubmit={(e) => void handleSubmit(onSubmit)(e)}
          failed={failed ? T.sendFailed : null}
          submitting={isSubmitting}
          texts={T}
        >
          <SubjectField
            label={T.subject}
            registration={register('subject', {
              validate: (v) =>
                lengthError(v, PEER_POST_SUBJECT_MAX_LENGTH, {
                  required: T.subjectRequired,
                  tooLong: T.subjectTooLong,
                }) ?? true,
            })}
            error={errors.subject}
          />
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
        </WritingForm>
      </DisplayNameGate>
    </PageLayout>
  );
}
