import { useConfig } from '../config/runtime-config.tsx';
import { useApi } from '../data/index.ts';
import { installedAsApp } from '../ui-kit/installed-as-app.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { lengthRules } from '../writing/length-error.ts';
import { useNewWriting } from '../writing/use-new-writing.ts';
import { SubjectField } from '../writing/subject-field.tsx';
import { WritingForm } from '../writing/writing-form.tsx';
import { MAIL_SUBJECT_MAX_LENGTH } from '../../contract/limits.ts';
import { MailTextField, validateMailText } from './mail-text-field.tsx';
import { MAIL_TEXTS as T } from './texts.ts';
import { mailPaths } from '../conversation-ui/mail-paths.ts';
import * as s from './mail.styles.ts';

/** Route '/mina-sidor/nytt-inlagg' (Peers: '/mina-sidor/nytt-meddelande'): write a new mail-style message to a counsellor. */
export function NewPostPage() {
  const api = useApi();
  const config = useConfig();
  const { form, failed, submit } = useNewWriting({
    send: ({ subject, text }) =>
      api.sendMail(subject, text, {
        userAgent: navigator.userAgent,
        platform: navigator.platform,
        installed: installedAsApp(),
      }),
    sentPath: (sent) => mailPaths(config.features).thread(sent.conversationId),
    texts: T,
  });
  const { register, watch, formState } = form;
  const { errors, isSubmitting } = formState;
  const length = watch('text').length;

  return (
    <PageLayout title={T.newPostHeading} backButton>
      <h1>{T.newPostHeading}</h1>
      <p>{T.newPostIntro(config.providerName)}</p>
      <WritingForm
        label={T.newPostHeading}
        onSubmit={(e) => void submit(e)}
        failed={failed ? T.sendFailed : null}
        submitting={isSubmitting}
        texts={T}
      >
        <SubjectField
          label={T.subject}
          registration={register(
            'subject',
            lengthRules(MAIL_SUBJECT_MAX_LENGTH, { required: T.subjectRequired, tooLong: T.subjectTooLong }),
          )}
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
