import { formatCalendarDate } from '../../client-kit/time/format-time.ts';
import { Link } from 'wouter';
import { useOpenConversation } from '../data/index.ts';
import { useOneToOneEntries } from '../historic-chat/use-one-to-one-entries.ts';
import { MessageList } from '../chat-window/message-list.tsx';
import { useConversation } from '../data/meeting-and-chat-hooks.ts';
import { conversationType } from '../conversation-ui/conversation-lists.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { NoticeQuestion } from '../one-to-one-chat/notice-question.tsx';
import { ReplyForm } from './reply-form.tsx';
import { MAIL_TEXTS as T } from './texts.ts';
import * as s from './mail.styles.ts';

/** Route '/mina-sidor/inlagg/:id' (Peers: '/mina-sidor/meddelande/:id'): one mail thread, followed live while it is open. */
export function ThreadPage({ id }: { id: string }) {
  const conversationId = /^\d{1,15}$/.test(id) ? Number(id) : null;
  return (
    <PageLayout title={T.threadFallbackTitle} backButton>
      {conversationId === null ? <p>{T.notFound}</p> : <Thread conversationId={conversationId} />}
      <p>
        <Link href="/mina-sidor">{T.backToMyPages}</Link>
      </p>
    </PageLayout>
  );
}

function Thread({ conversationId }: { conversationId: number }) {
  const conversation = useConversation(conversationId);
  const result = useOpenConversation(conversationId);
  const { entries, older } = useOneToOneEntries(conversationId, T.counsellor);

  if (!conversation) {
    if (result === null || conversation === undefined) return <Spinner label={T.loading} />;
    return (
      <p role="alert">
        {result === 'ok' || result === 'forbidden' || result === 'not_found' ? T.notFound : T.loadFailed}
      </p>
    );
  }

  return (
    <>
      <h1>{conversation.subject || T.threadFallbackTitle}</h1>
      <p className={s.meta}>{T.started(formatCalendarDate(conversation.loggedDate))}</p>
      {result === 'offline' && <p role="status">{T.offline}</p>}
      <div className={s.thread}>
        {!entries || entries.length === 0 ? (
          <p>{T.empty}</p>
        ) : (
          <MessageList entries={entries} windowed={false} older={older} />
        )}
      </div>
      {/* Just sent, before any answer: would the child like to be told of it (once per browser)? */}
      {conversationType(conversation) === 'mail' && conversation.lastAgentMessageDate === null && (
        <NoticeQuestion texts={T} />
      )}
      {conversationType(conversation) === 'mail' && <ReplyForm conversationId={conversationId} />}
    </>
  );
}
