import { PEER_POST_SUBJECT_MAX_LENGTH, PEER_POST_TEXT_MAX_LENGTH } from '../../contract/limits.ts';
import { useApi } from '../data/index.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { NewWritingForm } from '../writing/new-writing-form.tsx';
import { DisplayNameGate } from './display-name-gate.tsx';
import { PEER_TEXTS as T } from './texts.ts';

/** Route '/mina-sidor/nytt-inlagg' in Peers: a post for other young people, read by a counsellor first. */
export function NewPeerPostPage() {
  const api = useApi();
  return (
    <PageLayout title={T.newPostHeading} backButton>
      <h1>{T.newPostHeading}</h1>
      <p>{T.newPostIntro}</p>
      <DisplayNameGate>
        <NewWritingForm
          send={({ subject, text }) => api.writePeerPost(subject, text)}
          sentPath={(sent) => `/mina-sidor/inlagg/${sent.id}`}
          texts={{ ...T, heading: T.newPostHeading, counter: T.postCounter }}
          limits={{ subject: PEER_POST_SUBJECT_MAX_LENGTH, text: PEER_POST_TEXT_MAX_LENGTH }}
        />
      </DisplayNameGate>
    </PageLayout>
  );
}
