import { PEER_POST_SUBJECT_MAX_LENGTH, PEER_POST_TEXT_MAX_LENGTH } from '../../contract/limits.ts';
import { useApi } from '../data/index.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { lengthRules } from '../writing/length-error.ts';
import { useNewWriting } from '../writing/use-new-writing.ts';
import { SubjectField } from '../writing/subject-field.tsx';
import { WritingForm } from '../writing/writing-form.tsx';
import { DisplayNameGate } from './display-name-gate.tsx';
import { PeerTextField } from './peer-text-field.tsx';
import { PEER_TEXTS as T } from './texts.ts';

/** Route '/mina-sidor/nytt-inlagg' in Peers: a post for other young people, read by a counsellor first. */
export function NewPeerPostPage() {
  const api = useApi();
  const { form, failed, submit } = useNewWriting({
    send: ({ subject, text }) => api.writePeerPost(subject, text),
    sentPath: (sent) => `/mina-sidor/inlagg/${sent.id}`,
    texts: T,
  });
  const { register, watch, formState } = form;
  const { errors, isSubmitting } = formState;

  return (
    <PageLayout title={T.newPostHeading} backButton>
      <h1>{T.newPostHeading}</h1>
      <p>{T.newPostIntro}</p>
      <DisplayNameGate>
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
              lengthRules(PEER_POST_SUBJECT_MAX_LENGTH, {
                required: T.subjectRequired,
                tooLong: T.subjectTooLong,
              }),
            )}
            error={errors.subject}
          />
          <PeerTextField
            label={T.text}
            registration={register(
              'text',
              lengthRules(PEER_POST_TEXT_MAX_LENGTH, { required: T.textRequired, tooLong: T.textTooLong }),
            )}
            error={errors.text}
            counter={T.postCounter(watch('text').length)}
          />
        </WritingForm>
      </DisplayNameGate>
    </PageLayout>
  );
}
