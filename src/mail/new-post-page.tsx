import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { useApi } from '../data/index.ts';
import { showToast } from '../dialogs/toast-store.ts';
import { installedAsApp } from '../ui-kit/installed-as-app.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { lengthError } from '../writing/length-error.ts';
import { SubjectField } from '../writing/subject-field.tsx';
import { WritingForm } from '../writing/writing-form.tsx';
import { MAIL_SUBJECT_MAX_LENGTH } from './mail-limits.ts';
import { MailTextField, validateMailText } from './mail-text-field.tsx';
import { MAIL_TEXTS as T } from './texts.ts';
import { mailPaths } from '../conversation-ui/mail-paths.ts';
import * as s from './mail.styles.ts';

interface Values {
  subject: string;
  text: string;
}

/** Route '/mina-sidor/nytt-inlagg' (Peers: '/mina-sidor/nytt-meddelande'): write a new mail-style message to a counsellor. */
export function NewPostPage() {
  const api = useApi();
  const config = useConfig();
  const [, navigate] = useLocation();
  const [failed, setFailed] = useState(false);
  const { register, handleSubmit, watch, formState } = useForm<Values>({
    mode: 'onTouched',
    defaultValues: { subject: '', text: '' },
  });
  const { errors, isSubmitting } = formState;
  const length = watch('text').length;

  const onSubmit = async ({ subject, text }: Values) => {
    setFailed(false);
    const device = {
      userAgent: navigator.userAgent,
      platform: navigator.platform,
      installed: installedAsApp(),
    };
    const answer = await api.sendMail(subject.trim(), text.trim(), device).catch(() => null);
    const result = answer?.ok ? answer.value : null;
    if (result?.status === 'sent') {
      showToast(T.sent, { kind: 'success' });
      // Replace: going back from the thread leads to my pages, not to an emptied form.
      navigate(mailPaths(config.features).thread(result.conversationId), { replace: true });
    } else if (result?.status === 'queued' || result?.status === 'waiting') {
      // Kept in the outbox either way and sent on its own: offline, or the server asked to wait.
      showToast(result.status === 'queued' ? T.queued : (result.message ?? T.waiting));
      navigate('/mina-sidor', { replace: true });
    } else setFailed(true);
  };

  return (
    <PageLayout title={T.newPostHeading} backButton>
      <h1>{T.newPostHeading}</h1>
      <p>{T.newPostIntro(config.providerName)}</p>
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
              lengthError(v, MAIL_SUBJECT_MAX_LENGTH, {
                required: T.subjectRequired,
                tooLong: T.subjectTooLong,
              }) ?? true,
          })}
          error={errors.subject}
        />
        <MailTextField
          label={T.text}
          className={s.textarea}
          registration={register('text', { validate: validateMailText })}
          error={errors.text}
          length={length}
        />
      </WritingForm>
    </PageLayout>
  );
}
