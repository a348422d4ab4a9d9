import { useConfig } from '../config/runtime-config.tsx';
import { useApi } from '../data/index.ts';
import { installedAsApp } from '../ui-kit/installed-as-app.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { NewWritingForm } from '../writing/new-writing-form.tsx';
import { MAIL_MAX_LENGTH, MAIL_SUBJECT_MAX_LENGTH } from '../../contract/limits.ts';
import { MAIL_TEXTS as T } from './texts.ts';
import { mailPaths } from '../../contract/mail-paths.ts';

/** Route '/mina-sidor/nytt-inlagg' (Peers: '/mina-sidor/nytt-meddelande'): write a new mail-style message to a counsellor. */
export function NewPostPage() {
  const api = useApi();
  const config = useConfig();
  return (
    <PageLayout title={T.newPostHeading} backButton>
      <h1>{T.newPostHeading}</h1>
      <p>{T.newPostIntro(config.providerName)}</p>
      <NewWritingForm
        send={({ subject, text }) =>
          api.sendMail(subject, text, {
            userAgent: navigator.userAgent,
            platform: navigator.platform,
            installed: installedAsApp(),
          })
        }
        sentPath={(sent) => mailPaths(config.features).thread(sent.conversationId)}
        texts={{ ...T, heading: T.newPostHeading }}
        limits={{ subject: MAIL_SUBJECT_MAX_LENGTH, text: MAIL_MAX_LENGTH }}
      />
    </PageLayout>
  );
}
